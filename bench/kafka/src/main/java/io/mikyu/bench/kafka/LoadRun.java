package io.mikyu.bench.kafka;

import org.HdrHistogram.Histogram;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run of one workload on one side's clients: the consumers start, then the producers, each in a thread of its
 * own, sending as fast as their sends return; after the warm-up a window of the duration is measured; then the
 * producers stop, the run waits until every sent message arrived (or nothing arrived for {@link #DRAIN_IDLE_NS}),
 * plus {@link #LATE_NS} for late duplicates, and verifies.
 */
final class LoadRun {

    /** Longer than a lease (30 s by default): a message held by a client that never hands it out comes back. */
    private static final long DRAIN_IDLE_NS = TimeUnit.SECONDS.toNanos(90);
    private static final long LATE_NS = TimeUnit.MILLISECONDS.toNanos(300);
    private static final long MAX_LATENCY_NS = TimeUnit.SECONDS.toNanos(600);
    private static final long START_LIMIT_S = 120;

    private final BenchOptions options;
    private final long run;
    private final Ledger ledger;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong receivedInWindow = new AtomicLong();
    private final AtomicLong redelivered = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Histogram> latencies = new ArrayList<>();
    private volatile boolean producing = true;
    private volatile boolean consuming = true;
    private volatile long windowStart = Long.MAX_VALUE;
    private volatile long windowEnd = Long.MAX_VALUE;

    LoadRun(BenchOptions options, long run) {
        this.options = options;
        this.run = run;
        this.ledger = new Ledger(options.producers());
    }

    Result execute(int round, Workload workload, String side, Clients clients) throws InterruptedException {
        String loadBefore = loadAverage();
        int consumerCount = workload == Workload.LOG ? 1 : options.consumers();
        CountDownLatch ready = new CountDownLatch(consumerCount);
        List<Thread> consumers = new ArrayList<>();
        for (int i = 0; i < consumerCount; i++) {
            int id = i;
            Histogram latency = new Histogram(MAX_LATENCY_NS, 3);
            latencies.add(latency);
            consumers.add(start(side + "-consumer-" + i, () -> consume(clients, id, latency, ready)));
        }
        if (!ready.await(START_LIMIT_S, TimeUnit.SECONDS)) {
            failure.compareAndSet(null, new IllegalStateException("the consumers did not start"));
        }
        long[] sent = new long[options.producers()];
        long[] sentInWindow = new long[options.producers()];
        List<Thread> producers = new ArrayList<>();
        long begin = System.nanoTime();
        windowStart = begin + TimeUnit.SECONDS.toNanos(options.warmupSeconds());
        windowEnd = windowStart + TimeUnit.SECONDS.toNanos(options.durationSeconds());
        for (int i = 0; i < options.producers() && failure.get() == null; i++) {
            int id = i;
            producers.add(start(side + "-producer-" + i, () -> produce(clients, id, sent, sentInWindow)));
        }
        while (failure.get() == null && System.nanoTime() - windowEnd < 0) {
            TimeUnit.MILLISECONDS.sleep(Math.max(1, Math.min(100, (windowEnd - System.nanoTime()) / 1_000_000)));
        }
        producing = false;
        join(producers);
        long producersDone = System.nanoTime();
        long total = 0;
        long inWindow = 0;
        for (int i = 0; i < sent.length; i++) {
            total += sent[i];
            inWindow += sentInWindow[i];
        }
        drain(total);
        double drainS = (System.nanoTime() - producersDone) / 1e9;
        consuming = false;
        join(consumers);

        Histogram latency = new Histogram(MAX_LATENCY_NS, 3);
        latencies.forEach(latency::add);
        double window = options.durationSeconds();
        Throwable failed = failure.get();
        return new Result(round, workload, side, inWindow / window, receivedInWindow.get() / window,
                micros(latency, 50), micros(latency, 99), total, received.get(), ledger.lost(sent),
                ledger.duplicates(), ledger.foreign(), redelivered.get(), drainS, loadBefore, loadAverage(),
                failed == null ? null : failed.toString());
    }

    private void produce(Clients clients, int id, long[] sent, long[] sentInWindow) throws Exception {
        try (Clients.Sender sender = clients.sender(id)) {
            long seq = 0;
            long inWindow = 0;
            while (producing && failure.get() == null) {
                long at = System.nanoTime();
                sender.send(id, seq, at);
                seq++;
                long done = System.nanoTime();
                if (at - windowStart >= 0 && done - windowEnd < 0) {
                    inWindow++;
                }
            }
            sent[id] = seq;
            sentInWindow[id] = inWindow;
        }
    }

    private void consume(Clients clients, int id, Histogram latency, CountDownLatch ready) throws Exception {
        try (Clients.Receiver receiver = clients.receiver(id)) {
            ready.countDown();
            Clients.Sink sink = (runOf, producer, seq, sentNanos, length, again) -> {
                long now = System.nanoTime();
                if (again) {
                    redelivered.incrementAndGet();
                }
                boolean ok = length == options.size() && ledger.first(runOf == run, producer, seq);
                if (!ok) {
                    return;
                }
                received.incrementAndGet();
                if (now - windowStart >= 0 && now - windowEnd < 0) {
                    receivedInWindow.incrementAndGet();
                }
                if (sentNanos - windowStart >= 0 && sentNanos - windowEnd < 0) {
                    latency.recordValue(Math.min(MAX_LATENCY_NS, Math.max(0, now - sentNanos)));
                }
            };
            while (consuming && failure.get() == null) {
                receiver.receive(sink);
            }
        }
    }

    /** Until every sent message arrived, or none arrived for {@link #DRAIN_IDLE_NS}; then for late copies. */
    private void drain(long expected) throws InterruptedException {
        long last = -1;
        long lastProgress = System.nanoTime();
        while (failure.get() == null && received.get() < expected) {
            long got = received.get();
            long now = System.nanoTime();
            if (got != last) {
                last = got;
                lastProgress = now;
            } else if (now - lastProgress > DRAIN_IDLE_NS) {
                failure.compareAndSet(null, new IllegalStateException("drain gave up: " + got + " of " + expected
                        + " received"));
                break;
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        TimeUnit.NANOSECONDS.sleep(LATE_NS);
    }

    private interface Work {
        void run() throws Exception;
    }

    private Thread start(String name, Work work) {
        Thread t = new Thread(() -> {
            try {
                work.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                e.printStackTrace();
            }
        }, name);
        t.start();
        return t;
    }

    /** A client stuck in a send or a receive fails the run instead of holding it forever. */
    private void join(List<Thread> threads) throws InterruptedException {
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(START_LIMIT_S));
            if (t.isAlive()) {
                failure.compareAndSet(null, new IllegalStateException(t.getName() + " did not stop"));
            }
        }
    }

    private static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e3;
    }

    /** The 1-minute load average, as {@code /proc/loadavg} says ({@code null} where there is none). */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (Exception e) {
            return "null";
        }
    }
}
