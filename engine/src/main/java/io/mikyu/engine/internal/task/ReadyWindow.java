package io.mikyu.engine.internal.task;

import io.mikyu.engine.Record;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TimeSource;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;

import java.util.List;
import java.util.TreeSet;

/**
 * The window of ready tasks a task queue holds, and the rest of its backlog, which stays in the log
 * ({@link ColdBacklog}): which new tasks go cold, and bringing cold tasks back in delivery order for a take, a
 * filtered take, a browse and a replay. Guarded by the queue's lock; the held sets are {@link TaskQueueState}'s,
 * reached through {@link Holder}.
 */
final class ReadyWindow {

    /** The held side: the queue's own sets, under the same lock. */
    interface Holder {
        /** Holds {@code e} as it enters (placed by the queue's rules); false if it expired on the way. */
        boolean hold(TaskEntry e, byte[] payload, long now);

        /** Holds {@code e} as ready, as it is (replay applies its state record next). */
        void holdReady(TaskEntry e);

        TaskEntry firstReady();

        int heldReady();

        TaskEntry find(long id);
    }

    /** The most cold tasks read back at once to fill the window (a few MiB, read without the queue's lock). */
    private static final int REFILL_CHUNK = 4096;
    /** The most cold matches of a filter one search holds (the rest of its read is tested again next time). */
    private static final int WARM_MATCHES = 256;

    private final int size;
    private final ColdBacklog cold;
    /** Read only to convert a cold task's wall-clock deliver-at and expiry to steady time as it comes back. */
    private final TimeSource clock;
    private final Holder held;
    /** A {@link TopUp} is planned and not finished: at most one reads at a time. */
    private boolean topUpInFlight;

    ReadyWindow(int size, ColdBacklog cold, TimeSource clock, Holder held) {
        this.size = size;
        this.cold = cold;
        this.clock = clock;
        this.held = held;
    }

    ColdBacklog cold() {
        return cold;
    }

    /**
     * Whether the new task {@code id} stays in the log only: it is ready at enqueue, and its priority already has
     * cold tasks or the window is full. Tasks join in log order, which is what makes counting enough (see
     * {@link ColdBacklog}).
     */
    boolean goesCold(long id, TaskRecordDescriptor.Meta meta, long enqueuedAt) {
        if (ColdBacklog.readyAtEnqueue(meta, enqueuedAt) && (cold.has(meta.priority()) || held.heldReady() >= size)) {
            cold.add(id, meta.priority());
            return true;
        }
        return false;
    }

    /**
     * Whether a take must wait for cold tasks before it can go on in delivery order: no ready task is held, or cold
     * tasks of a priority above every held ready one exist.
     */
    boolean coldFirst() {
        if (cold.isEmpty()) {
            return false;
        }
        TaskEntry first = held.firstReady();
        return first == null || first.priority < cold.highestPriority();
    }

    /**
     * Claims the next read of cold tasks back into the window, if it wants one (a take waits on cold tasks, or the
     * window is below half full) and none is in flight; {@code null} otherwise. The caller reads it without the
     * queue's lock ({@link #read}) and hands it to {@link #finish} under the lock again: the read, 4,096 tasks and
     * the state records between them, is the slow part, and holding the lock for it stalled every enqueue, ack
     * and take of the queue.
     */
    TopUp planTopUp() {
        if (cold.isEmpty() || topUpInFlight) {
            return null;
        }
        if (!coldFirst() && held.heldReady() >= size / 2) {
            return null;
        }
        int p = cold.highestPriority();
        topUpInFlight = true;
        return new TopUp(p, cold.from(p), cold.last(p),
                (int) Math.min(cold.count(p), Math.max(1, Math.min(REFILL_CHUNK, size - held.heldReady()))));
    }

    /** Whether a top-up is being read now: a take that waits on cold tasks waits for it. */
    boolean topUpInFlight() {
        return topUpInFlight;
    }

    /** Without the queue's lock: reads what {@code topUp} planned. Touches the log only, none of this state. */
    void read(TopUp topUp) {
        topUp.records = cold.readAhead(topUp.priority, topUp.start, topUp.last, topUp.max);
    }

    /**
     * Under the lock again: holds the tasks {@code topUp} read that are still cold (a filtered take, a purge or
     * another top-up may have taken some meanwhile), in id order, and ends it. A read that failed ({@link #read}
     * threw) ends it with nothing held.
     */
    void finish(TopUp topUp, long now) {
        topUpInFlight = false;
        if (topUp.records == null) {
            return;
        }
        long wallToSteady = wallToSteady();
        int max = Math.max(1, Math.min(topUp.max, size - held.heldReady()));
        cold.takeRead(topUp.priority, topUp.start, topUp.records, max, r -> {
            held.hold(entryOf(r, wallToSteady), r.payload(), now); // false: expired on the way, never delivered
            return true;
        });
    }

    /**
     * A planned read of cold tasks of {@code priority} back into the window: the log from {@code start} (the run's
     * first cold task when planned) up to {@code last} (its newest), for at most {@code max} tasks.
     */
    static final class TopUp {
        final int priority;
        final long start;
        final long last;
        final int max;
        /** What the read found; {@code null} until it is done (or if it failed). */
        List<Record> records;

        TopUp(int priority, long start, long last, int max) {
            this.priority = priority;
            this.start = start;
            this.last = last;
            this.max = max;
        }
    }

    /**
     * Before a filtered take: if the first task in delivery order that matches {@code filter} may be cold (none is
     * held, or cold tasks of a higher priority than the first held match exist), finds it in the log and holds it.
     * {@code tested} (the filter's own, per priority) remembers how far the cold tasks were tested, so a filter
     * whose matches are rare reads each cold task once, not once per take; and one search holds every match of its
     * read (up to {@link #WARM_MATCHES}), so a filter that matches much reads each chunk once, not once per match.
     */
    void warmFirstMatch(TaskFilter filter, TreeSet<TaskEntry> matching, long[] tested, long now) {
        if (cold.isEmpty()) {
            return;
        }
        // Cold tasks of the first held match's own priority come after it (their ids are higher).
        int floor = matching.isEmpty() ? 0 : matching.first().priority + 1;
        long wallToSteady = wallToSteady();
        int[] holding = new int[1];
        for (int p = ColdBacklog.LEVELS - 1; p >= floor; p--) {
            while (cold.has(p)) {
                int taken = cold.takeMatches(p, tested, WARM_MATCHES,
                        rec -> FilterIndex.test(filter, entryOf(rec, wallToSteady)), r -> {
                            if (held.hold(entryOf(r, wallToSteady), r.payload(), now)) {
                                holding[0]++; // in the filter's set now
                            }
                            return true;
                        });
                if (holding[0] > 0) {
                    return; // the take finds them in the filter's set
                }
                if (taken == 0) {
                    break;
                }
            }
        }
    }

    /**
     * For message groups, whose members may find nothing of theirs among the held ready tasks: reads the next
     * chunk of cold tasks back past the window, up to twice its size. False if there is none or no room.
     */
    boolean admitPastWindow(long now) {
        if (cold.isEmpty() || held.heldReady() >= 2 * size) {
            return false;
        }
        admit(cold.highestPriority(), REFILL_CHUNK, now);
        return true;
    }

    /**
     * Browsing: the cold tasks of {@code priority} matching {@code filter} and not expired, in order, added to
     * {@code out} (copies with their payloads, not held) until it holds {@code max}.
     */
    void browse(int priority, int max, TaskFilter filter, long now, List<TaskEntry> out) {
        if (!cold.has(priority)) {
            return;
        }
        long wallToSteady = wallToSteady();
        cold.peek(priority, r -> {
            TaskEntry e = entryOf(r, wallToSteady);
            if (!e.isExpired(now) && (filter == null || FilterIndex.test(filter, e))) {
                e.payload = r.payload();
                out.add(e);
            }
            return out.size() < max;
        });
    }

    /**
     * A cold task named by a state record during replay, taken out of the backlog and held; or null if it is not
     * cold. State records mostly name tasks in delivery order, so one near the front of its priority's cold run
     * brings the next chunk of the run back with it (one read for many records, as the live queue reads them).
     */
    TaskEntry warm(long id) {
        if (cold.isEmpty()) {
            return null;
        }
        long now = clock.steadyMillis();
        for (int p = ColdBacklog.LEVELS - 1; p >= 0; p--) {
            if (cold.has(p) && id >= cold.from(p) && id <= cold.last(p) && id - cold.from(p) < REFILL_CHUNK) {
                admit(p, REFILL_CHUNK, now);
                TaskEntry e = held.find(id);
                if (e != null) {
                    return e;
                }
            }
        }
        Record r = cold.takeOne(id);
        if (r == null) {
            return null;
        }
        TaskEntry e = entryOf(r, wallToSteady());
        held.holdReady(e);
        return e;
    }

    /** Reads up to {@code max} cold tasks of {@code priority} back into memory, in id order. */
    private void admit(int priority, int max, long now) {
        long wallToSteady = wallToSteady();
        cold.take(priority, max, r -> {
            held.hold(entryOf(r, wallToSteady), r.payload(), now);
            return true;
        });
    }

    /** See {@code TaskQueueState.wallToSteady}: read afresh for each batch of tasks coming back. */
    private long wallToSteady() {
        return clock.steadyMillis() - clock.wallMillis();
    }

    private static TaskEntry entryOf(Record r, long wallToSteady) {
        TaskRecordDescriptor.Meta meta = TaskRecordDescriptor.Meta.decode(r.key());
        return new TaskEntry(r.offset(), meta.priority(), r.timestamp(), meta.deliverAt(), meta.expiresAt(),
                r.headers(), wallToSteady);
    }
}
