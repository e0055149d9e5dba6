package io.mikyu.engine.internal.write;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * fsyncs asynchronously written data every flush interval, off the writer thread: at hundreds of MB/s one
 * interval's fsync can take tens of milliseconds, which on the writer thread would stall every producer.
 * {@link WriteTarget#force()} clears the dirty mark before it syncs, so a write racing a flush is caught by the
 * next one; a failed fsync does not leave a clean mark behind, since it stops its target for good.
 */
public final class BackgroundFlusher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BackgroundFlusher.class);

    private final Thread thread;
    private final Supplier<? extends Collection<? extends WriteTarget>> targets;
    private final long intervalNanos;
    private final WriterMetrics metrics;
    /** Runs after each round: what waits for data to be fsynced (a transaction's APPLIED record) looks again. */
    private final Runnable afterRound;
    /** Dirty marks set so far, store-wide; {@code null}: walk every round. */
    private final LongSupplier dirtied;
    private volatile boolean running = true;

    public BackgroundFlusher(Supplier<? extends Collection<? extends WriteTarget>> targets, long intervalNanos,
                             WriterMetrics metrics, Runnable afterRound) {
        this(targets, intervalNanos, metrics, afterRound, null);
    }

    /**
     * @param dirtied how many dirty marks were set so far (read before a walk): a round that finds it unchanged,
     *                after a round that left nothing dirty, walks no target. With tens of thousands of queues the
     *                walk itself, five times a second, was what an idle store spent most on.
     */
    public BackgroundFlusher(Supplier<? extends Collection<? extends WriteTarget>> targets, long intervalNanos,
                             WriterMetrics metrics, Runnable afterRound, LongSupplier dirtied) {
        this.dirtied = dirtied;
        this.targets = targets;
        this.intervalNanos = intervalNanos;
        this.metrics = metrics;
        this.afterRound = afterRound;
        this.thread = new Thread(this::run, "mikyu-flusher");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        long walkedAt = Long.MIN_VALUE;
        boolean leftDirty = true;
        while (running) {
            long start = System.nanoTime();
            long marks = dirtied == null ? 0 : dirtied.getAsLong();
            if (dirtied == null || marks != walkedAt || leftDirty) {
                walkedAt = marks;
                leftDirty = flushAll();
            }
            try {
                afterRound.run();
            } catch (RuntimeException e) {
                LOG.warn("after a flush: {}", e.toString(), e);
            }
            long sleep = intervalNanos - (System.nanoTime() - start);
            if (sleep > 0 && running) {
                java.util.concurrent.locks.LockSupport.parkNanos(this, sleep);
            }
        }
    }

    /** fsyncs every dirty target now; {@code true} if one is still dirty (its fsync failed). */
    public boolean flushAll() {
        boolean leftDirty = false;
        for (WriteTarget target : targets.get()) {
            // A target stopped by a failed fsync is not tried again: its error was reported once, where it happened.
            if (target.isOpen() && target.isDirty() && target.failure() == null) {
                try {
                    target.force();
                    metrics.backgroundFsync();
                } catch (IOException | RuntimeException e) {
                    leftDirty = true;
                    if (target.isOpen()) {
                        metrics.fsyncFailure();
                        LOG.error("background fsync of {} failed; it is stopped until the store is reopened",
                                target.describe(), e);
                    }
                }
            }
        }
        return leftDirty;
    }

    @Override
    public void close() {
        running = false;
        java.util.concurrent.locks.LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
