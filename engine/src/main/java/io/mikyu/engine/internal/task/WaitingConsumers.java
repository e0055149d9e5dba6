package io.mikyu.engine.internal.task;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The consumers of one queue waiting for a change (a task ready, a lease ended): those that wait with a thread on
 * a condition of the ledger's lock, and those that wait without one (AsyncDequeue) as one-shot listeners. All
 * methods but {@link #unlisten} run under the lock.
 */
final class WaitingConsumers {

    private static final Logger LOG = LoggerFactory.getLogger(WaitingConsumers.class);

    private final String queue;
    private final ReentrantLock lock;
    private final TaskQueueState state;
    private final Condition changed;
    /** Dequeuers waiting on {@link #changed} with a filter (guarded by the lock); see {@link #signalReady}. */
    private int filteredWaiters;
    /** One-shot wake-ups of consumers that wait without a thread (AsyncDequeue), guarded by the lock. */
    private final Set<Runnable> readyListeners = new LinkedHashSet<>();

    WaitingConsumers(String queue, ReentrantLock lock, TaskQueueState state) {
        this.queue = queue;
        this.lock = lock;
        this.state = state;
        this.changed = lock.newCondition();
    }

    /**
     * Under the lock, after {@code count} tasks joined: wakes that many waiting consumers rather than all of them,
     * so four consumers idling on a queue do not all race for each single task (on two cores every needless
     * wake-up costs tens of microseconds). A consumer that takes and leaves ready tasks behind wakes the next one
     * ({@link #passOn}). Everyone wakes when a waiter has a filter (a signal could go to one the new tasks do not
     * match) or when a task is not ready yet (every waiter's timed wait must be planned again).
     */
    void signalReady(int count, boolean allReady) {
        if (!allReady || filteredWaiters > 0) {
            wakeAll();
            return;
        }
        for (int i = 0; i < count && lock.hasWaiters(changed); i++) {
            changed.signal();
        }
        fireListeners();
    }

    /** Under the lock, after a consumer took: if tasks are still ready, the next waiting consumer gets them. */
    void passOn() {
        if (state.hasReady()) {
            if (lock.hasWaiters(changed)) {
                changed.signal();
            }
            fireListeners();
        }
    }

    /**
     * Under the lock: waits up to {@code nanos} for a change; {@code filtered}: the caller takes with a filter, so
     * a new task may not be for it (see {@link #signalReady}).
     */
    void awaitChange(long nanos, boolean filtered) throws InterruptedException {
        if (filtered) {
            filteredWaiters++;
        }
        try {
            changed.awaitNanos(nanos);
        } finally {
            if (filtered) {
                filteredWaiters--;
            }
        }
    }

    /** Under the lock: every waiting consumer looks again, with a thread or without. */
    void wakeAll() {
        changed.signalAll();
        fireListeners();
    }

    /** Under the lock: {@code whenReady} runs once at the next change (see AsyncDequeue). */
    void listen(Runnable whenReady) {
        readyListeners.add(whenReady);
    }

    void unlisten(Runnable whenReady) {
        lock.lock();
        try {
            readyListeners.remove(whenReady);
        } finally {
            lock.unlock();
        }
    }

    private void fireListeners() {
        if (readyListeners.isEmpty()) {
            return;
        }
        Runnable[] due = readyListeners.toArray(new Runnable[0]);
        readyListeners.clear();
        for (Runnable r : due) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.warn("a ready listener of '{}' failed", queue, e);
            }
        }
    }
}
