package io.mikyu.bench.xa;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples the worker threads' stacks, and those of the providers' writer threads, at a fixed interval during the
 * measured window and writes them in the collapsed format flame-graph tools read
 * ({@code thread;frame;frame;... count}, the thread's name without digits first, then the outermost frame). A
 * waiting thread is sampled where it waits, so this shows where a transaction's wall-clock time goes, not only its
 * CPU time.
 */
final class StackSampler implements Runnable {

    /** Besides the workers: threads whose names start with one of these (mikyu's writer, Artemis' journal). */
    private static final List<String> ALSO = List.of("mikyu-writer", "mikyu-flusher", "activemq-libaio",
            "activemq-buffer", "H2-save");

    private final List<Thread> workers;
    private final long intervalMillis;
    private final Map<String, Integer> counts = new HashMap<>();
    private volatile boolean running = true;
    private final Thread thread = new Thread(this, "xa-stack-sampler");

    StackSampler(List<Thread> threads, long intervalMillis) {
        this.workers = threads;
        this.intervalMillis = intervalMillis;
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        List<Thread> threads = new java.util.ArrayList<>(workers);
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (ALSO.stream().anyMatch(t.getName()::startsWith)) {
                threads.add(t);
            }
        }
        while (running) {
            for (Thread t : threads) {
                StackTraceElement[] stack = t.getStackTrace();
                if (stack.length == 0) {
                    continue;
                }
                StringBuilder b = new StringBuilder(t.getName().replaceAll("[0-9]+", "")).append(';');
                for (int i = stack.length - 1; i >= 0; i--) {
                    StackTraceElement e = stack[i];
                    b.append(e.getClassName()).append('.').append(e.getMethodName());
                    if (i > 0) {
                        b.append(';');
                    }
                }
                counts.merge(b.toString(), 1, Integer::sum);
            }
            try {
                Thread.sleep(intervalMillis);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops sampling and writes the collapsed stacks. */
    void stopAndWrite(Path file) throws IOException, InterruptedException {
        running = false;
        thread.join();
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file))) {
            counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .forEach(e -> out.println(e.getKey() + " " + e.getValue()));
        }
    }
}
