package io.mikyu.cli.bench;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineStats;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The log-queue workload of {@code mikyu bench run}.
 *
 * <p>Producer threads append fixed-size records to queues {@code bench-0..}, spread round-robin, timing every
 * append call. At the same time tailing consumers read each queue from where the run started with long polls
 * and check, through {@link BenchPayload}, that every record arrives exactly once and in each producer's order.
 */
public final class LogBench {

    /** Latencies above this are recorded as this; a minute-long append call is a failure, not a percentile. */
    private static final long MAX_LATENCY_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final Duration POLL_WAIT = Duration.ofMillis(100);
    private static final int POLL_RECORDS = 4096;
    private static final long POLL_BYTES = 4L << 20;
    /** A consumer that sees nothing new this long after the producers finished has lost records. */
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** What to run. Checked on construction; messages name the CLI options. */
    public record Settings(int workers, Durability durability, int messageSize, long totalBytes, int batch,
                           int queues, int consumersPerQueue, Duration warmup) {
        public Settings {
            require(workers >= 1, "--workers must be at least 1");
            require(messageSize >= BenchPayload.HEADER_BYTES,
                    "--message-size must be at least " + BenchPayload.HEADER_BYTES + " bytes (the bench's record header)");
            require(batch >= 1, "--batch must be at least 1");
            require(queues >= 1, "--queues must be at least 1");
            require(consumersPerQueue >= 0, "--consumers must not be negative");
            require(!warmup.isNegative(), "--warmup must not be negative");
            require(totalBytes / messageSize >= workers,
                    "--bytes must allow at least one message per worker (" + workers + " x --message-size)");
        }

        public long messages() {
            return totalBytes / messageSize;
        }

        /** Records worker {@code w} appends: an even share, the remainder going to the first workers. */
        long messagesOf(int worker) {
            return messages() / workers + (worker < messages() % workers ? 1 : 0);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }

    private final Mikyu store;
    private final Settings settings;
    private final PrintWriter progress;

    private final LongAdder produced = new LongAdder();
    private final LongAdder consumed = new LongAdder();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicReference<String> verificationError = new AtomicReference<>();
    private volatile boolean producersDone;
    private volatile boolean stopping;

    /** {@code progress} gets a line a second on long runs (standard error, for the CLI). */
    public LogBench(Mikyu store, Settings settings, PrintWriter progress) {
        this.store = store;
        this.settings = settings;
        this.progress = progress;
    }

    /** Asks a running bench to stop soon; {@link #run()} then throws {@link CancellationException}. */
    public void stop() {
        stopping = true;
    }

    /**
     * Runs the workload and returns what it measured.
     *
     * @throws CancellationException if {@link #stop()} was called first
     */
    public LogBenchResult run() throws InterruptedException {
        if (!settings.warmup().isZero()) {
            warmUp();
        }
        List<LogQueue> queues = new ArrayList<>();
        for (int q = 0; q < settings.queues(); q++) {
            queues.add(store.getOrCreateLog("bench-" + q, LogQueueConfig.defaults().withDurability(settings.durability())));
        }
        EngineStats before = store.stats();

        CountDownLatch startGate = new CountDownLatch(1);
        List<Producer> producers = new ArrayList<>();
        for (int w = 0; w < settings.workers(); w++) {
            producers.add(new Producer(w, queues.get(w % queues.size()), settings.messagesOf(w), Long.MAX_VALUE, startGate));
        }
        List<Consumer> consumers = new ArrayList<>();
        for (int q = 0; q < queues.size(); q++) {
            long expected = 0;
            for (int w = q; w < settings.workers(); w += queues.size()) {
                expected += settings.messagesOf(w);
            }
            for (int c = 0; c < settings.consumersPerQueue(); c++) {
                // Start where this run starts: a reused --data-dir may hold earlier runs' records.
                consumers.add(new Consumer(q, queues.get(q), queues.get(q).endOffset(), expected, startGate));
            }
        }

        List<Thread> threads = new ArrayList<>();
        producers.forEach(p -> threads.add(start(p, "bench-producer-" + p.worker)));
        for (int i = 0; i < consumers.size(); i++) {
            threads.add(start(consumers.get(i), "bench-consumer-" + i));
        }
        ProgressReporter reporter = new ProgressReporter(progress, settings.messageSize(), produced, consumed);
        try {
            long startNanos = System.nanoTime();
            startGate.countDown();
            for (Producer p : producers) {
                p.thread.join();
            }
            producersDone = true;
            for (Consumer c : consumers) {
                c.thread.join();
            }
            rethrowFailure();
            if (stopping) {
                throw new CancellationException("bench stopped before it finished");
            }

            Histogram latency = new Histogram(MAX_LATENCY_NANOS, 3);
            long produceEnd = startNanos;
            for (Producer p : producers) {
                latency.add(p.latency);
                produceEnd = Math.max(produceEnd, p.endNanos);
            }
            long consumeEnd = startNanos;
            for (Consumer c : consumers) {
                consumeEnd = Math.max(consumeEnd, c.endNanos);
            }
            return new LogBenchResult(settings, produced.sum(), consumed.sum(),
                    (produceEnd - startNanos) / 1e9, (consumeEnd - startNanos) / 1e9,
                    latency, before, store.stats(), verificationError.get());
        } finally {
            // On failure or stop, let no worker go on using a store that is about to close. They notice within a
            // poll wait or one append; interrupting them instead could close the engine's file channels under them.
            stopping = true;
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            reporter.stop();
        }
    }

    /** Appends for the warm-up time to separate queues, which are deleted afterwards, so the JIT has settled. */
    private void warmUp() throws InterruptedException {
        progress.println("bench: warming up for " + settings.warmup().toSeconds() + " s");
        progress.flush();
        long deadline = System.nanoTime() + settings.warmup().toNanos();
        CountDownLatch go = new CountDownLatch(0);
        List<Producer> producers = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int q = 0; q < settings.queues(); q++) {
            names.add("bench-warmup-" + q);
            store.deleteLog(names.get(q));
        }
        for (int w = 0; w < settings.workers(); w++) {
            LogQueue queue = store.getOrCreateLog(names.get(w % names.size()),
                    LogQueueConfig.defaults().withDurability(settings.durability()));
            producers.add(new Producer(w, queue, Long.MAX_VALUE, deadline, go));
            start(producers.get(w), "bench-warmup-" + w);
        }
        for (Producer p : producers) {
            p.thread.join();
        }
        rethrowFailure();
        names.forEach(store::deleteLog);
        produced.reset();
    }

    private Thread start(Worker worker, String name) {
        Thread thread = new Thread(worker, name);
        thread.setDaemon(true);
        worker.thread = thread;
        thread.start();
        return thread;
    }

    private void rethrowFailure() {
        Throwable t = failure.get();
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new IllegalStateException("bench thread failed: " + t, t);
        }
    }

    private abstract class Worker implements Runnable {
        Thread thread;
        volatile long endNanos;
        final CountDownLatch startGate;

        Worker(CountDownLatch startGate) {
            this.startGate = startGate;
        }

        @Override
        public final void run() {
            try {
                startGate.await();
                work();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                endNanos = System.nanoTime();
            }
        }

        abstract void work() throws InterruptedException;

        boolean aborted() {
            return stopping || failure.get() != null;
        }
    }

    private final class Producer extends Worker {
        final int worker;
        final LogQueue queue;
        final long messages;
        final long deadlineNanos;
        final Histogram latency = new Histogram(MAX_LATENCY_NANOS, 3);

        Producer(int worker, LogQueue queue, long messages, long deadlineNanos, CountDownLatch startGate) {
            super(startGate);
            this.worker = worker;
            this.queue = queue;
            this.messages = messages;
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        void work() {
            final int size = settings.messageSize();
            final Durability durability = settings.durability();
            final List<Entry> batch = new ArrayList<>(settings.batch());
            long sequence = 0;
            while (sequence < messages && !aborted() && System.nanoTime() < deadlineNanos) {
                int n = (int) Math.min(settings.batch(), messages - sequence);
                batch.clear();
                for (int i = 0; i < n; i++) {
                    batch.add(Entry.of(BenchPayload.encode(worker, sequence + i, size)));
                }
                long t0 = System.nanoTime();
                if (n == 1) {
                    queue.append(batch.get(0), durability);
                } else {
                    queue.appendBatch(batch, durability);
                }
                latency.recordValue(Math.min(System.nanoTime() - t0, MAX_LATENCY_NANOS));
                sequence += n;
                produced.add(n);
            }
        }
    }

    private final class Consumer extends Worker {
        final int queueIndex;
        final LogQueue queue;
        final long firstOffset;
        final long expected;

        Consumer(int queueIndex, LogQueue queue, long firstOffset, long expected, CountDownLatch startGate) {
            super(startGate);
            this.queueIndex = queueIndex;
            this.queue = queue;
            this.firstOffset = firstOffset;
            this.expected = expected;
        }

        @Override
        void work() throws InterruptedException {
            long[] nextSequence = new long[settings.workers()];
            long next = firstOffset;
            long seen = 0;
            long lastProgress = System.nanoTime();
            while (seen < expected && !aborted()) {
                List<Record> records = queue.poll(next, POLL_RECORDS, POLL_BYTES, POLL_WAIT);
                if (records.isEmpty()) {
                    if (producersDone && System.nanoTime() - lastProgress > STALL_NANOS) {
                        fail("consumer of " + queue.name() + " saw nothing new for "
                                + TimeUnit.NANOSECONDS.toSeconds(STALL_NANOS) + " s at offset " + next + ", after "
                                + seen + " of " + expected + " records");
                        return;
                    }
                    continue;
                }
                for (Record record : records) {
                    String problem = check(record, next, nextSequence);
                    if (problem != null) {
                        fail(queue.name() + ": " + problem);
                        return;
                    }
                    next = record.offset() + 1;
                }
                seen += records.size();
                consumed.add(records.size());
                lastProgress = System.nanoTime();
            }
            if (seen > expected) {
                fail(queue.name() + ": consumed " + seen + " records, expected " + expected);
            }
        }

        /** Why {@code record} is not the one expected next, or {@code null} if it is. */
        private String check(Record record, long expectedOffset, long[] nextSequence) {
            if (record.offset() != expectedOffset) {
                return "expected offset " + expectedOffset + ", got " + record.offset();
            }
            byte[] payload = record.payload();
            if (payload == null || payload.length != settings.messageSize()) {
                return "record " + record.offset() + " has " + (payload == null ? "no" : payload.length + " bytes of")
                        + " payload, expected " + settings.messageSize();
            }
            int worker = BenchPayload.worker(payload);
            if (worker < 0 || worker >= settings.workers() || worker % settings.queues() != queueIndex) {
                return "record " + record.offset() + " names worker " + worker + ", which does not write here";
            }
            long sequence = BenchPayload.sequence(payload);
            if (sequence != nextSequence[worker]) {
                return "record " + record.offset() + " is worker " + worker + "'s #" + sequence + ", expected #"
                        + nextSequence[worker] + (sequence < nextSequence[worker] ? " (duplicate)" : " (gap or reorder)");
            }
            nextSequence[worker]++;
            return null;
        }

        private void fail(String message) {
            verificationError.compareAndSet(null, message);
        }
    }

    /** Prints produce and consume rates to standard error once a second. */
    private static final class ProgressReporter {
        private final Thread thread;

        ProgressReporter(PrintWriter out, int messageSize, LongAdder produced, LongAdder consumed) {
            long start = System.nanoTime();
            AtomicLong lastProduced = new AtomicLong();
            AtomicLong lastConsumed = new AtomicLong();
            thread = new Thread(() -> {
                try {
                    while (true) {
                        Thread.sleep(1000);
                        long p = produced.sum();
                        long c = consumed.sum();
                        long dp = p - lastProduced.getAndSet(p);
                        long dc = c - lastConsumed.getAndSet(c);
                        out.printf(Locale.ROOT, "bench: %4ds  produced %,d msgs (%.1f MB/s)  consumed %,d msgs (%.1f MB/s)%n",
                                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start),
                                p, dp * (double) messageSize / 1e6, c, dc * (double) messageSize / 1e6);
                        out.flush();
                    }
                } catch (InterruptedException e) {
                    // closed
                }
            }, "bench-progress");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            thread.interrupt();
            thread.join();
        }
    }
}
