package io.mikyu.engine.internal.task;

import io.mikyu.engine.GroupMember;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The consumers of one queue waiting for a change (a task ready, a lease ended): those that wait with a thread on
 * a condition of the ledger's lock, and those that wait without one (AsyncDequeue) as one-shot listeners. All
 * methods but {@link #unlisten} run under the lock.
 *
 * <p>A listener that takes as a message-group member is woken only by tasks it may take: new tasks of groups it
 * owns, ungrouped or unowned ones, and the changes {@link MessageGroups} reports for it or for everyone. Four
 * members of a queue otherwise each took once per new task to find three of four tasks were another's: on a
 * broker every such take is a turn of the connection's event loop.
 */
final class WaitingConsumers {

    private static final Logger LOG = LoggerFactory.getLogger(WaitingConsumers.class);

    private final String queue;
    private final ReentrantLock lock;
    private final TaskQueueState state;
    private final Condition changed;
    /** Dequeuers waiting on {@link #changed} with a filter (guarded by the lock); see {@link #signalReady}. */
    private int filteredWaiters;
    /**
     * One-shot wake-ups of consumers that wait without a thread (AsyncDequeue), guarded by the lock; each with the
     * group member it takes as, or {@link #NO_MEMBER}.
     */
    private final Map<Runnable, Object> readyListeners = new LinkedHashMap<>();
    private static final Object NO_MEMBER = new Object();

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
        signalReady(count, allReady, Takers.EVERYONE);
    }

    /** As {@link #signalReady(int, boolean)}; listeners are woken only if the new tasks may be for them. */
    void signalReady(int count, boolean allReady, Takers takers) {
        if (!allReady) {
            wakeAll();
            return;
        }
        if (filteredWaiters > 0) {
            changed.signalAll();
        } else {
            for (int i = 0; i < count && lock.hasWaiters(changed); i++) {
                changed.signal();
            }
        }
        fireListeners(takers);
    }

    /**
     * Under the lock, after a consumer took: if tasks are still ready, the next waiting consumer gets them.
     * {@code listenersToo} false: the listeners were told of those tasks as they became ready (a member's take
     * that left only what is not its own), so only a waiting thread is passed on to.
     */
    void passOn(boolean listenersToo) {
        if (state.hasReady()) {
            if (lock.hasWaiters(changed)) {
                changed.signal();
            }
            if (listenersToo) {
                fireListeners(Takers.EVERYONE);
            }
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
        fireListeners(Takers.EVERYONE);
    }

    /**
     * Under the lock: a change that concerns group member {@code member} only (null: everyone); waiting threads
     * all look again, listeners only if they take as that member.
     */
    void wake(GroupMember member) {
        changed.signalAll();
        fireListeners(member == null ? Takers.EVERYONE : Takers.of(member));
    }

    /** Under the lock: {@code whenReady} runs once at the next change (see AsyncDequeue). */
    void listen(Runnable whenReady) {
        listen(whenReady, null);
    }

    /** As {@link #listen(Runnable)}, for a consumer taking as {@code member} (null: none). */
    void listen(Runnable whenReady, GroupMember member) {
        readyListeners.put(whenReady, member == null ? NO_MEMBER : member);
    }

    void unlisten(Runnable whenReady) {
        lock.lock();
        try {
            readyListeners.remove(whenReady);
        } finally {
            lock.unlock();
        }
    }

    private void fireListeners(Takers takers) {
        if (readyListeners.isEmpty()) {
            return;
        }
        List<Runnable> due;
        if (takers.everyone) {
            due = new ArrayList<>(readyListeners.keySet());
            readyListeners.clear();
        } else {
            due = new ArrayList<>();
            for (var it = readyListeners.entrySet().iterator(); it.hasNext(); ) {
                var l = it.next();
                if (l.getValue() == NO_MEMBER || takers.members.contains(l.getValue())) {
                    due.add(l.getKey());
                    it.remove();
                }
            }
        }
        for (Runnable r : due) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.warn("a ready listener of '{}' failed", queue, e);
            }
        }
    }

    /**
     * Whom new ready tasks may be for: everyone (a task without a group, of an unowned group, or not known), or the
     * listeners of the members owning their groups (and those taking as no member, who ignore groups).
     */
    static final class Takers {
        static final Takers EVERYONE = new Takers(true);

        private boolean everyone;
        private final Set<Object> members = Collections.newSetFromMap(new IdentityHashMap<>());

        Takers() {
            this(false);
        }

        private Takers(boolean everyone) {
            this.everyone = everyone;
        }

        static Takers of(GroupMember member) {
            Takers t = new Takers();
            t.add(member);
            return t;
        }

        /** A task for {@code owner}'s takes; null: for anyone's. */
        void add(GroupMember owner) {
            if (owner == null) {
                everyone = true;
            } else if (!everyone) {
                members.add(owner);
            }
        }

        boolean everyone() {
            return everyone;
        }
    }
}
