package io.mikyu.cli.bench;

import io.mikyu.engine.EngineStats;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
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
 * What the workloads of {@code mikyu bench run} share: producer threads that write fixed-size
 * {@link BenchPayload}s to queues {@code bench-0..} (worker {@code w} to queue {@code w % queues}), timing every
 * write call, while consumer threads read them back and check each arrives as it should. A subclass says how a
 * kind of queue is created, written and consumed: {@link LogBench}, {@link TaskBench}.
 *
 * @param <Q> the queue handle
 * @param <E> what one write call takes a list of
 */
public abstract class Bench<Q, E> {

    /** Latencies above this are recorded as this; a minute-long write call is a failure, not a percentile. */
    static final long MAX_LATENCY_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** How long a consumer's poll or dequeue waits: also how soon workers notice a stop. */
    static final Duration POLL_WAIT = Duration.ofMillis(100);
    /** A consumer that sees nothing new this long after the producers finished has lost messages. */
    static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The store; a backlog run replaces it with the store opened again between producing and draining. */
    volatile Mikyu store;
    final BenchSettings settings;
    /** Set for a backlog run: closes the store and opens it again (see {@link #backlogThenDrain}). */
    private java.util.function.UnaryOperator<Mikyu> reopen;
    /** A remote backlog run: the reopen is a daemon's restart, and the heap watched is this client's. */
    private boolean restartsDaemon;
    private final PrintWriter progress;

    final LongAdder produced = new LongAdder();
    final LongAdder consumed = new LongAdder();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicReference<String> verificationError = new AtomicReference<>();
    volatile boolean producersDone;
    private volatile boolean stopping;
    /** Set when the warm-up's producers are done: its consumers stop where they are. */
    private volatile boolean warmUpOver;

    /** {@code progress} gets a line a second on long runs (standard error, for the CLI). */
    Bench(Mikyu store, BenchSettings settings, PrintWriter progress) {
        this.store = store;
        this.settings = settings;
        this.progress = progress;
    }

    /** The bench of {@code kind}'s queues. */
    public static Bench<?, ?> of(QueueKind kind, Mikyu store, BenchSettings settings, PrintWriter progress) {
        return switch (kind) {
            case LOG -> new LogBench(store, settings, progress);
            case TASK -> new TaskBench(store, settings, progress);
        };
    }

    abstract QueueKind kind();

    /** The queue {@code name}, created if needed and ready for a measured run. */
    abstract Q prepareQueue(String name);

    abstract void deleteQueue(String name);

    /** One message to write, around a payload. */
    abstract E message(byte[] payload);

    /** Writes {@code batch} with the settings' durability, in one call. */
    abstract void write(Q queue, List<E> batch);

    /**
     * The consumers of queue {@code queueIndex}, which must receive {@code expected} messages from this run; with
     * {@link #WARM_UP}, they consume until the warm-up ends and check only what a message of an unbounded run can
     * be checked for.
     */
    abstract List<Worker> consumers(int queueIndex, Q queue, long expected, CountDownLatch startGate);

    /** What {@link #consumers} expect during the warm-up: everything the producers write until it ends. */
    static final long WARM_UP = Long.MAX_VALUE;

    /** The queue {@code name} of the reopened store, as the producers left it (a backlog run). */
    Q reopenedQueue(String name) {
        throw new UnsupportedOperationException(kind() + " queues have no backlog run");
    }

    /**
     * Makes this a backlog run: the producers write everything with no consumer running, then {@code reopen}
     * closes the store and opens it again (timed), and only then do the consumers drain what was produced (their
     * rate is the drain's alone). The heap and the collector are watched over the whole run. {@code restartsDaemon}:
     * the store is a daemon's, and {@code reopen} waits for it to be restarted.
     */
    public void backlogThenDrain(boolean restartsDaemon, java.util.function.UnaryOperator<Mikyu> reopen) {
        this.reopen = java.util.Objects.requireNonNull(reopen);
        this.restartsDaemon = restartsDaemon;
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
    public BenchResult run() throws InterruptedException {
        if (!settings.warmup().isZero()) {
            warmUp();
        }
        List<Q> queues = new ArrayList<>();
        for (int q = 0; q < settings.queues(); q++) {
            queues.add(prepareQueue("bench-" + q));
        }
        EngineStats before = store.stats();
        ProcessProbe.HeapWatch heap = reopen == null ? null : ProcessProbe.watchHeap();

        CountDownLatch startGate = new CountDownLatch(1);
        List<Producer> producers = new ArrayList<>();
        for (int w = 0; w < settings.workers(); w++) {
            producers.add(new Producer(w, queues.get(w % queues.size()), settings.messagesOf(w), Long.MAX_VALUE,
                    startGate));
        }
        List<Worker> consumers = new ArrayList<>();
        if (reopen == null) {
            for (int q = 0; q < queues.size(); q++) {
                consumers.addAll(consumers(q, queues.get(q), settings.messagesOfQueue(q), startGate));
            }
        }

        List<Thread> threads = new ArrayList<>();
        producers.forEach(p -> threads.add(start(p, "bench-producer-" + p.worker)));
        for (int i = 0; i < consumers.size(); i++) {
            threads.add(start(consumers.get(i), "bench-consumer-" + i));
        }
        ProgressReporter reporter = new ProgressReporter(progress, settings.messageSize(), produced, consumed);
        try {
            ProcessUsage.Snapshot usageAtStart = ProcessUsage.snapshot();
            long startNanos = System.nanoTime();
            startGate.countDown();
            for (Producer p : producers) {
                p.thread.join();
            }
            producersDone = true;
            long consumeStart = startNanos;
            double reopenSeconds = 0;
            if (reopen != null && !stopping) {
                rethrowFailure();
                long reopenStart = System.nanoTime();
                store = reopen.apply(store);
                reopenSeconds = (System.nanoTime() - reopenStart) / 1e9;
                before = store.stats(); // the engine's counters start again with the store: they show the drain
                consumeStart = System.nanoTime();
                for (int q = 0; q < queues.size(); q++) {
                    consumers.addAll(consumers(q, reopenedQueue("bench-" + q), settings.messagesOfQueue(q),
                            new CountDownLatch(0)));
                }
                for (int i = 0; i < consumers.size(); i++) {
                    threads.add(start(consumers.get(i), "bench-consumer-" + i));
                }
            }
            for (Worker c : consumers) {
                c.thread.join();
            }
            ProcessUsage usage = usageAtStart.until(ProcessUsage.snapshot());
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
            long consumeEnd = consumeStart;
            for (Worker c : consumers) {
                consumeEnd = Math.max(consumeEnd, c.endNanos);
            }
            BacklogRun backlog = null;
            if (heap != null) {
                long[] h = heap.stop();
                backlog = new BacklogRun(reopenSeconds, h[0], h[1], h[2], h[3], restartsDaemon);
            }
            return new BenchResult(kind(), settings, produced.sum(), consumed.sum(),
                    (produceEnd - startNanos) / 1e9, (consumeEnd - consumeStart) / 1e9,
                    latency, before, store.stats(), verificationError.get(), usage, backlog);
        } finally {
            // On failure or stop, let no worker go on using a store that is about to close. They notice within a
            // poll wait or one write; interrupting them instead could close the engine's file channels under them.
            stopping = true;
            for (Thread thread : threads) {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            reporter.stop();
        }
    }

    /**
     * Runs the workload for the warm-up time on separate queues, which are deleted afterwards, so the JIT has
     * settled on both sides of the measured path: the consumers' code too (over a network that is the decoding of
     * answers, as much code as the producers' side).
     */
    private void warmUp() throws InterruptedException {
        progress.println("bench: warming up for " + settings.warmup().toSeconds() + " s");
        progress.flush();
        long deadline = System.nanoTime() + settings.warmup().toNanos();
        CountDownLatch go = new CountDownLatch(1);
        List<String> names = new ArrayList<>();
        List<Q> queues = new ArrayList<>();
        for (int q = 0; q < settings.queues(); q++) {
            names.add("bench-warmup-" + q);
            deleteQueue(names.get(q));
            queues.add(prepareQueue(names.get(q)));
        }
        // Consumers first: a log consumer starts at the end its queue has when it is made.
        List<Worker> consumers = new ArrayList<>();
        for (int q = 0; q < queues.size(); q++) {
            consumers.addAll(consumers(q, queues.get(q), WARM_UP, go));
        }
        for (int i = 0; i < consumers.size(); i++) {
            start(consumers.get(i), "bench-warmup-consumer-" + i);
        }
        List<Producer> producers = new ArrayList<>();
        for (int w = 0; w < settings.workers(); w++) {
            producers.add(new Producer(w, queues.get(w % queues.size()), Long.MAX_VALUE, deadline, go));
            start(producers.get(w), "bench-warmup-" + w);
        }
        go.countDown();
        for (Producer p : producers) {
            p.thread.join();
        }
        warmUpOver = true;
        for (Worker c : consumers) {
            c.thread.join();
        }
        warmUpOver = false;
        rethrowFailure();
        String problem = verificationError.get();
        if (problem != null) {
            throw new IllegalStateException("bench warm-up delivered wrongly: " + problem);
        }
        names.forEach(this::deleteQueue);
        produced.reset();
        consumed.reset();
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

    /** Records the first thing that was delivered wrongly; the run then reports it and does not verify. */
    void failVerification(String message) {
        verificationError.compareAndSet(null, message);
    }

    /** A bench thread: waits for the start, works, and notes when it ended and whether it failed. */
    abstract class Worker implements Runnable {
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
            return stopping || warmUpOver || failure.get() != null || verificationError.get() != null;
        }
    }

    /** Writes its worker's sequence of messages in batches, timing each write call. */
    private final class Producer extends Worker {
        final int worker;
        final Q queue;
        final long messages;
        final long deadlineNanos;
        final Histogram latency = new Histogram(MAX_LATENCY_NANOS, 3);

        Producer(int worker, Q queue, long messages, long deadlineNanos, CountDownLatch startGate) {
            super(startGate);
            this.worker = worker;
            this.queue = queue;
            this.messages = messages;
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        void work() {
            final int size = settings.messageSize();
            final List<E> batch = new ArrayList<>(settings.batch());
            long sequence = 0;
            while (sequence < messages && !aborted() && System.nanoTime() < deadlineNanos) {
                int n = (int) Math.min(settings.batch(), messages - sequence);
                batch.clear();
                for (int i = 0; i < n; i++) {
                    batch.add(message(BenchPayload.encode(worker, sequence + i, size)));
                }
                long t0 = System.nanoTime();
                write(queue, batch);
                latency.recordValue(Math.min(System.nanoTime() - t0, MAX_LATENCY_NANOS));
                sequence += n;
                produced.add(n);
            }
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
