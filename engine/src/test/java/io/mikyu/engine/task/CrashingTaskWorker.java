package io.mikyu.engine.task;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.engine.Durability;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.Payloads;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The child process of the task crash tests. Modes:
 * <ul>
 *   <li>{@code enqueue <dir> threads=4}: enqueues self-checking tasks with SYNC durability from several threads
 *       forever, printing {@code ENQ <producer> <seq> <id> $} after each enqueue returns.</li>
 *   <li>{@code work <dir> threads=2}: dequeues and acks forever, printing {@code ACKED <id> $} after each ack
 *       returns (even-numbered threads ack one by one, odd ones in batches), {@code STALE <id> $} if refused.</li>
 * </ul>
 * Every line ends with {@code $} so the parent can ignore a line cut by the kill.
 */
public final class CrashingTaskWorker {

    static final String QUEUE = "crash";

    /** The config of the crash tests' queue: SYNC, 1 s leases, short backoff. */
    static final TaskQueueConfig CONFIG = TaskQueueConfig.defaults().withDurability(Durability.SYNC)
            .withDefaultLease(Duration.ofSeconds(1)).withBackoff(Duration.ofMillis(50), 2.0, Duration.ofMillis(200))
            .withMaxAttempts(100);


    private CrashingTaskWorker() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path dir = Path.of(args[1]);
        Map<String, String> opts = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            opts.put(kv[0], kv[1]);
        }
        int threads = Integer.parseInt(opts.getOrDefault("threads", "2"));
        Mikyu store = Mikyu.open(dir);
        TaskQueue queue = store.getOrCreateTaskQueue(QUEUE, CONFIG);
        println("READY " + ProcessHandle.current().pid());
        switch (mode) {
            case "enqueue" -> enqueue(queue, threads);
            case "work" -> work(queue, threads);
            default -> throw new IllegalArgumentException(mode);
        }
        Thread.currentThread().join();
    }

    private static void println(String line) {
        ChildProcess.println(line);
    }

    private static void enqueue(TaskQueue queue, int threads) {
        for (int p = 0; p < threads; p++) {
            int producer = p;
            Thread t = new Thread(() -> {
                Headers headers = Headers.of("producer", String.valueOf(producer));
                for (long seq = 0; ; seq++) {
                    Task task = Task.of(Payloads.encode(producer, seq)).withHeaders(headers)
                            .withPriority((int) (seq % 10));
                    long id = queue.enqueue(task, Durability.SYNC);
                    println("ENQ " + producer + " " + seq + " " + id);
                }
            }, "producer-" + p);
            t.start();
        }
    }

    private static void work(TaskQueue queue, int threads) {
        for (int w = 0; w < threads; w++) {
            boolean batch = w % 2 == 1;
            Thread t = new Thread(() -> {
                while (true) {
                    List<LeasedTask> got;
                    try {
                        got = queue.dequeue(batch ? 5 : 1, CONFIG.defaultLease(), Duration.ofMillis(200), null);
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (batch) {
                        List<LeaseToken> tokens = new ArrayList<>();
                        got.forEach(task -> tokens.add(task.token()));
                        if (tokens.isEmpty()) {
                            continue;
                        }
                        try {
                            queue.ack(tokens);
                            got.forEach(task -> println("ACKED " + task.id()));
                        } catch (StaleLeaseException e) {
                            got.forEach(task -> println("STALE " + task.id()));
                        }
                    } else {
                        for (LeasedTask task : got) {
                            try {
                                queue.ack(task.token());
                                println("ACKED " + task.id());
                            } catch (StaleLeaseException e) {
                                println("STALE " + task.id());
                            }
                        }
                    }
                }
            }, "worker-" + w);
            t.start();
        }
    }
}
