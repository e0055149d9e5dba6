package io.mikyu.engine.internal.txn;

import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.write.WriterMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * fsyncs the transaction log for PREPARE records written ahead ({@link TransactionManager#prepareAhead}), on a
 * thread of its own. The writer writes such a record without an fsync and hands it here: the writer's own fsyncs
 * (COMMITs, other sync appends) then never wait behind a record whose phase one has not even been asked for, and
 * this thread's fsync overlaps them. Group commit as the writer's: one fsync covers every record handed over
 * before it began (whatever was published by then), and records that arrive during it share the next.
 *
 * <p>A failed fsync stops the log ({@link SegmentedLog#force()}), and every record it was to cover fails: the
 * branch's {@code prepare} fails, as it would had the writer's fsync failed.
 */
final class AheadSyncer {

    private static final Logger LOG = LoggerFactory.getLogger(AheadSyncer.class);

    /** A record written (not yet fsynced) at {@code baseOffset}, below {@code end}. */
    private record Pending(AheadRecord record, long baseOffset, long end) {
    }

    /** Tells the thread to stop once what came before it is done (an interrupt could close the log's channel). */
    private static final Pending STOP = new Pending(null, 0, 0);

    private final SegmentedLog txLog;
    private final WriterMetrics metrics;
    private final LinkedBlockingQueue<Pending> pending = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean running = true;

    AheadSyncer(SegmentedLog txLog, WriterMetrics metrics) {
        this.txLog = txLog;
        this.metrics = metrics;
        this.thread = new Thread(this::run, "mikyu-prepare-ahead-sync");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * The record was written at {@code baseOffset} (below {@code end}); completes its {@code written} once it is
     * durable. Called on the writer thread: only hands it on.
     */
    void written(AheadRecord record, long baseOffset, long end) {
        if (!running) {
            record.written.completeExceptionally(new StoreClosedException("the store is closed"));
            return;
        }
        pending.add(new Pending(record, baseOffset, end));
    }

    private void run() {
        List<Pending> batch = new ArrayList<>();
        boolean stop = false;
        while (!stop) {
            try {
                batch.add(pending.take());
                pending.drainTo(batch);
                stop = batch.remove(STOP);
                if (!batch.isEmpty()) {
                    syncAndComplete(batch);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("fsync of records written ahead failed", e);
                for (Pending p : batch) {
                    p.record.written.completeExceptionally(e);
                }
            } finally {
                batch.clear();
            }
        }
    }

    private void syncAndComplete(List<Pending> batch) {
        long end = 0;
        for (Pending p : batch) {
            end = Math.max(end, p.end);
        }
        // The writer's fsync of a cycle that carried them (a COMMIT's, say) may have covered them already.
        if (txLog.durableEnd() < end) {
            try {
                txLog.force(); // covers what was published before it began: every record handed over so far
                metrics.aheadFsync();
            } catch (java.io.IOException | RuntimeException e) {
                if (e instanceof java.io.IOException) {
                    metrics.fsyncFailure();
                }
                LOG.error("fsync of {} failed; it is stopped until the store is reopened", txLog.describe(), e);
                RuntimeException failure = e instanceof RuntimeException r ? r
                        : new io.mikyu.engine.MikyuException("fsync failed for " + txLog.describe() + ": " + e, e);
                for (Pending p : batch) {
                    p.record.written.completeExceptionally(failure);
                }
                return;
            }
        }
        for (Pending p : batch) {
            p.record.written.complete(p.baseOffset);
        }
    }

    /** Finishes (fsyncs) what was handed over, then stops; before the transaction log is closed. */
    void close() {
        running = false;
        pending.add(STOP);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Pending p;
        while ((p = pending.poll()) != null) {
            if (p != STOP) {
                p.record.written.completeExceptionally(new StoreClosedException("the store is closed"));
            }
        }
    }
}
