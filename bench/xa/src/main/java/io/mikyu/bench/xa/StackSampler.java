package io.mikyu.bench.xa;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples the worker threads' stacks at a fixed interval during the measured window and writes them in the
 * collapsed format flame-graph tools read ({@code frame;frame;... count}, outermost first). A waiting worker is
 * sampled where it waits, so this shows where a transaction's wall-clock time goes, not only its CPU time.
 */
final class StackSampler implements Runnable {

    private final List<Thread> threads;
    private final long intervalMillis;
    private final Map<String, Integer> counts = new HashMap<>();
    private volatile boolean running = true;
    private final Thread thread = new Thread(this, "xa-stack-sampler");

    StackSampler(List<Thread> threads, long intervalMillis) {
        this.threads = threads;
        this.intervalMillis = intervalMillis;
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        while (running) {
            for (Thread t : threads) {
                StackTraceElement[] stack = t.getStackTrace();
                if (stack.length == 0) {
                    continue;
                }
                StringBuilder b = new StringBuilder();
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
