package io.mikyu.engine.internal.task;

import io.mikyu.engine.CommittedNotAppliedException;
import io.mikyu.engine.Headers;
import io.mikyu.engine.Record;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.TimeSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * Moves a ledger's items that ran out of attempts (or expired) to its queue's dead-letter queue, with their
 * original headers and the {@code DLQ_*} headers that say where they came from and why.
 */
final class DeadLetterMover {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterMover.class);
    /** How long a failed move to the dead-letter queue waits before it is tried again. */
    private static final long DEAD_LETTER_RETRY_MILLIS = 1000;

    private final String name;
    private final ReentrantLock lock;
    private final TaskQueueState state;
    private final TimeSource clock;
    /** The dead-letter queue; null if the queue has none. */
    private final TaskQueueHandle queue;
    /** The work item (task or log record) of an id, for its payload and headers. */
    private final LongFunction<Record> items;
    /** The ledger as a transaction participant (a {@link io.mikyu.engine.internal.txn.TxTarget} name). */
    private final String txTarget;
    /** Commits a transaction of the store: how dead letters move atomically. */
    private final Consumer<List<TxOp>> transactions;
    private volatile long moved;

    DeadLetterMover(String name, ReentrantLock lock, TaskQueueState state, TimeSource clock, TaskQueueHandle queue,
                    LongFunction<Record> items, String txTarget, Consumer<List<TxOp>> transactions) {
        this.name = name;
        this.lock = lock;
        this.state = state;
        this.clock = clock;
        this.queue = queue;
        this.items = items;
        this.txTarget = txTarget;
        this.transactions = transactions;
    }

    TaskQueueHandle queue() {
        return queue;
    }

    /** How many items were moved so far. */
    long movedCount() {
        return moved;
    }

    /** Under the lock: an item's move committed by a transaction was applied. */
    void countMoved() {
        moved++;
    }

    /**
     * Moves items marked leaving to the dead-letter queue, each as one transaction: the copy's enqueue there and
     * the DEAD record here commit together (the fsynced COMMIT record is the atomic point; recovery completes
     * whichever of the two writes a crash cut off), so a dead letter is neither duplicated nor lost, whatever the
     * queues' durability. Releases the lock (if held) around the writes.
     */
    void move(List<TaskEntry> leaving) {
        moveAll(leaving);
    }

    /**
     * Moves one item as {@link #move(List)} does, for a caller that asked for it (a nack at the last attempt): after a
     * failed move the item returns to its queue all the same, and the failure (a full disk, a failed write) is
     * thrown, so the caller is never told that an item left when it is still in its queue.
     */
    void moveOrThrow(TaskEntry e) {
        RuntimeException failure = moveAll(List.of(e));
        if (failure != null) {
            throw failure;
        }
    }

    /** The first move that failed, or null. */
    private RuntimeException moveAll(List<TaskEntry> leaving) {
        if (leaving.isEmpty()) {
            return null;
        }
        RuntimeException first = null;
        int holds = lock.getHoldCount();
        for (int i = 0; i < holds; i++) {
            lock.unlock();
        }
        try {
            for (TaskEntry e : leaving) {
                RuntimeException failure = move(e);
                first = first == null ? failure : first;
            }
        } finally {
            for (int i = 0; i < holds; i++) {
                lock.lock();
            }
        }
        return first;
    }

    /**
     * Null when moved (or decided); else the failure, the item returning to its queue after a short wait, to be moved
     * by its next nack or ended lease.
     */
    private RuntimeException move(TaskEntry e) {
        if (queue == null) {
            LOG.warn("'{}' has no dead-letter queue: {} stays in the queue", name, e.id);
            stay(e);
            return null;
        }
        try {
            byte[] body = e.isTransient() ? e.payload : items.apply(e.id).payload();
            Headers.Builder hb = Headers.builder();
            for (Headers.Header h : e.headers().asList()) {
                hb.add(h.name(), h.value());
            }
            hb.add(TaskQueue.DLQ_ORIGINAL_QUEUE, name).add(TaskQueue.DLQ_ORIGINAL_ID, Long.toString(e.id))
                    .add(TaskQueue.DLQ_ATTEMPTS, Integer.toString(e.attempts))
                    .add(TaskQueue.DLQ_REASON, e.lastReason == null ? "" : e.lastReason);
            byte[] payload = body == null ? new byte[0] : body;
            Task dead = new Task(payload, hb.build(), e.priority, 0, 0);
            if (e.isTransient()) {
                queue.enqueueTransient(List.of(dead), true); // stays as durable as it was: memory only
                withLock(() -> state.finish(e.id));
                moved++;
                return null;
            }
            // The DEAD settlement's memory update (settled) finishes the item, here or in recovery.
            transactions.accept(List.of(new TxOp.Enqueue(queue.name(), dead),
                    new TxOp.DeadLetter(txTarget, e.id, e.lease, e.attempts, e.lastReason)));
            return null;
        } catch (CommittedNotAppliedException committed) {
            // Decided: the store applies it later (housekeeping or the next open); moving it again would duplicate.
            LOG.warn("moving {} of '{}' to its dead-letter queue is committed but not yet applied", e.id, name,
                    committed);
            return null;
        } catch (RuntimeException failure) {
            LOG.warn("moving {} of '{}' to its dead-letter queue failed; retrying later", e.id, name, failure);
            stay(e);
            return failure;
        }
    }

    private void stay(TaskEntry e) {
        long now = clock.steadyMillis();
        withLock(() -> state.stay(e, now + DEAD_LETTER_RETRY_MILLIS, now));
    }

    private void withLock(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }
}
