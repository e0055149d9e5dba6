package io.mikyu.engine.internal.store;

import io.mikyu.engine.internal.log.OpenSegmentFiles;
import io.mikyu.engine.internal.task.TaskQueueHandle;
import io.mikyu.engine.internal.txn.TransactionManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * What a store does on its own, on its timer and housekeeping threads: the timer's tick (leases that ran out,
 * delays that ended, dead letters on time) and housekeeping (retention, compaction, checkpoints, the transaction
 * log, large bodies). Failures are logged and counted, never thrown: the scheduled executors that run these stop
 * rescheduling a task for good once it throws.
 */
final class StoreChores {

    private static final Logger LOG = LoggerFactory.getLogger(StoreChores.class);

    private final TaskQueues tasks;
    private final LogQueues logs;
    private final OpenSegmentFiles files;
    private final TransactionManager transactions;
    private final StoreBodies bodies;
    /** True once the store is closing: failures then are expected and not reported. */
    private final BooleanSupplier closing;
    private final AtomicLong housekeepingFailures = new AtomicLong();

    StoreChores(TaskQueues tasks, LogQueues logs, OpenSegmentFiles files, TransactionManager transactions,
                StoreBodies bodies, BooleanSupplier closing) {
        this.tasks = tasks;
        this.logs = logs;
        this.files = files;
        this.transactions = transactions;
        this.bodies = bodies;
        this.closing = closing;
    }

    /** Housekeeping steps that failed so far ({@code mikyu.engine.housekeeping.failures}). */
    long housekeepingFailures() {
        return housekeepingFailures.get();
    }

    /**
     * The timer's round: only the task queues and shared groups waiting for a lease or a delay to end
     * ({@link io.mikyu.engine.internal.task.DueLedgers}), so an idle store's round visits none.
     */
    void tick() {
        files.trim(); // channels fsynced since they were last in the way of the bound can go now
        tasks.due().tick((name, e) -> {
            if (!closing.getAsBoolean()) {
                LOG.warn("timer of {} failed", name, e);
            }
        });
    }

    /**
     * Retention, compaction, checkpoints and log cleanup of every queue. Nothing may escape, not even an Error (an
     * OutOfMemoryError in one queue's compaction must not end retention for all of them and let the disk fill).
     * Each failure is logged and counted, and the next run tries again.
     */
    void housekeeping() {
        try {
            housekeep("the transaction log", transactions::housekeeping);
            housekeep("large bodies", bodies::sweep);
            for (TaskQueueHandle t : tasks.all()) {
                housekeep(t.storage().describe(), t::housekeeping);
            }
            for (LogQueueHandle h : logs.all()) {
                housekeep(h.storage().describe(), () -> {
                    h.shared().checkpointAll();
                    h.applyRetention();
                    if (h.config().compacted()) {
                        h.compact();
                    }
                });
            }
        } catch (Throwable t) {
            housekeepingFailed("housekeeping", t);
        }
    }

    private void housekeep(String what, Runnable step) {
        try {
            step.run();
        } catch (Throwable t) {
            housekeepingFailed(what, t);
        }
    }

    private void housekeepingFailed(String what, Throwable t) {
        if (closing.getAsBoolean()) {
            return;
        }
        housekeepingFailures.incrementAndGet();
        if (t instanceof Error) {
            LOG.error("housekeeping of {} failed; the next run tries again", what, t);
        } else {
            LOG.warn("housekeeping of {} failed; the next run tries again", what, t);
        }
    }
}
