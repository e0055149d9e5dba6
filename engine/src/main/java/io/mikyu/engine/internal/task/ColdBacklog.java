package io.mikyu.engine.internal.task;

import io.mikyu.engine.Record;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The ready tasks of a task queue that are in its log only: counted, not held. Past the queue's window of ready
 * tasks in memory ({@link io.mikyu.engine.EngineConfig#taskWindow()}), a task that is ready when it is enqueued is
 * not held but counted here, under its priority; {@link TaskQueueState} reads them back in order as the window
 * empties.
 *
 * <p>Per priority, the cold tasks are exactly the task records of that priority, ready when enqueued, from
 * {@code from[p]} on, {@code count[p]} of them: new tasks join the queue in log order (see {@code TaskQueueHandle}),
 * and while a priority has cold tasks every further ready task of it goes cold too. So no id needs keeping: a
 * reader finds them again by walking the log from {@code from[p]} and testing each record, which is all in the
 * record (priority, and deliver-at not after the enqueue time). The one exception are tasks a replay had to bring
 * into memory early because a state record named them ({@link #takeOne}): {@link #ahead} holds their ids until a
 * walk passes them. Guarded by the queue's lock.
 */
final class ColdBacklog {

    /** Reads the queue's log: records from an offset on, as {@code SegmentedLog.read}. */
    interface LogReader {
        List<Record> read(long from, int maxRecords, long maxBytes);
    }

    /** What a walk does with each cold task; false stops it. */
    interface Visitor {
        boolean visit(Record task);
    }

    static final int LEVELS = 10;
    /** Records (and bytes) read from the log per read while walking. */
    private static final int READ_RECORDS = 1024;
    private static final long READ_BYTES = 4L << 20;

    private final String queue;
    private final LogReader log;
    private final long[] from = new long[LEVELS];
    private final long[] count = new long[LEVELS];
    /** The id of the newest cold task per priority: records past it are not counted yet (or not cold). */
    private final long[] last = new long[LEVELS];
    private long total;
    /** Cold-looking tasks at or beyond their priority's {@code from} that are in memory (or finished) already. */
    private final Set<Long> ahead = new HashSet<>();
    private long recordsRead;

    ColdBacklog(String queue, LogReader log) {
        this.queue = queue;
        this.log = log;
    }

    /**
     * Whether a task record is of the kind that goes cold: a task ready when it was enqueued. Delayed tasks are
     * always held (they must be found when they fall due), and the test needs nothing but the record itself.
     */
    static boolean readyAtEnqueue(TaskRecordDescriptor.Meta meta, long enqueuedAt) {
        return meta.deliverAt() <= enqueuedAt;
    }

    long total() {
        return total;
    }

    boolean isEmpty() {
        return total == 0;
    }

    boolean has(int priority) {
        return count[priority] > 0;
    }

    /** Records read back from the log so far (walks and early takes). */
    long recordsRead() {
        return recordsRead;
    }

    /** A new ready task, {@code id}, stays in the log only. */
    void add(long id, int priority) {
        if (count[priority] == 0) {
            from[priority] = id;
        }
        count[priority]++;
        last[priority] = id;
        total++;
    }

    /** The id of the first cold task of {@code priority} (or a state record before it), if it has any. */
    long from(int priority) {
        return from[priority];
    }

    /** The id of the newest cold task of {@code priority}, if it has any. */
    long last(int priority) {
        return last[priority];
    }

    /** The highest priority with cold tasks, or -1. */
    int highestPriority() {
        for (int p = LEVELS - 1; p >= 0; p--) {
            if (count[p] > 0) {
                return p;
            }
        }
        return -1;
    }

    /** The lowest id a cold task may have, or {@code Long.MAX_VALUE}: the log below it holds none. */
    long lowestId() {
        long min = Long.MAX_VALUE;
        for (int p = 0; p < LEVELS; p++) {
            if (count[p] > 0) {
                min = Math.min(min, from[p]);
            }
        }
        return min;
    }

    /** Takes up to {@code max} cold tasks of {@code priority} out, in id order, handing each to {@code sink}. */
    int take(int priority, int max, Visitor sink) {
        int taken = 0;
        long next = from[priority];
        while (taken < max && count[priority] > 0) {
            List<Record> records = read(next, priority);
            for (Record r : records) {
                next = r.offset() + 1;
                if (!isCold(priority, r) || ahead.remove(r.offset())) {
                    from[priority] = next;
                    continue;
                }
                from[priority] = next;
                count[priority]--;
                total--;
                taken++;
                sink.visit(r);
                if (taken == max || count[priority] == 0) {
                    break;
                }
            }
        }
        if (count[priority] == 0) {
            dropAheadBelow();
        }
        return taken;
    }

    /** How many cold tasks {@code priority} has. */
    long count(int priority) {
        return count[priority];
    }

    /**
     * Without the queue's lock (it reads the log and no state of this object): the records from {@code start} on,
     * up to {@code last}, far enough to hold {@code max} tasks of {@code priority} that look cold, for
     * {@link #takeRead} to take under the lock. A shorter list if the log ends first.
     */
    List<Record> readAhead(int priority, long start, long last, int max) {
        List<Record> out = new ArrayList<>();
        long next = start;
        int found = 0;
        while (found < max && next <= last) {
            List<Record> records = log.read(next, READ_RECORDS, READ_BYTES);
            if (records.isEmpty()) {
                break;
            }
            for (Record r : records) {
                if (r.offset() > last || found == max) {
                    break;
                }
                out.add(r);
                next = r.offset() + 1;
                if (isCold(priority, r)) {
                    found++;
                }
            }
            if (records.get(records.size() - 1).offset() >= last) {
                break;
            }
        }
        return out;
    }

    /**
     * Under the lock: takes up to {@code max} cold tasks of {@code priority} out of {@code records} (what
     * {@link #readAhead} read from {@code start}), in id order, handing each to {@code sink}, exactly as
     * {@link #take} would have from the log now. Records below the run's start are skipped: something took them
     * while the read was in flight. Returns how many were taken.
     */
    int takeRead(int priority, long start, List<Record> records, int max, Visitor sink) {
        recordsRead += records.size();
        if (count[priority] == 0 || from[priority] < start) {
            return 0; // emptied (a purge), or not the run the read was planned for
        }
        if (records.isEmpty()) {
            if (from[priority] == start) {
                read(start, priority); // the log ends before the counted tasks do: reported and dropped there
            }
            return 0;
        }
        int taken = 0;
        for (Record r : records) {
            if (taken == max || count[priority] == 0) {
                break;
            }
            if (r.offset() < from[priority]) {
                continue;
            }
            from[priority] = r.offset() + 1;
            if (!isCold(priority, r) || ahead.remove(r.offset())) {
                continue;
            }
            count[priority]--;
            total--;
            taken++;
            sink.visit(r);
        }
        if (count[priority] == 0) {
            dropAheadBelow();
        }
        return taken;
    }

    /** Walks the cold tasks of {@code priority} in id order without taking them, while {@code visitor} agrees. */
    void peek(int priority, Visitor visitor) {
        long left = count[priority];
        long next = from[priority];
        while (left > 0) {
            List<Record> records = read(next, priority);
            if (records.isEmpty()) {
                return;
            }
            for (Record r : records) {
                next = r.offset() + 1;
                if (!isCold(priority, r) || ahead.contains(r.offset())) {
                    continue;
                }
                left--;
                if (!visitor.visit(r) || left == 0) {
                    return;
                }
            }
        }
    }

    /**
     * Takes out of the backlog (a walk skips them later) up to {@code limit} cold tasks of {@code priority} that
     * {@code accept} takes, in id order, handing each to {@code sink}; testing from {@code tested[priority]} on, so
     * what was tested before is not tested again, and moving it past what was tested. Stops at the end of the read
     * that found the first match (or at {@code limit}): a run of matches costs one read, not one read each.
     * Returns how many were taken.
     */
    int takeMatches(int priority, long[] tested, int limit, Visitor accept, Visitor sink) {
        long next = Math.max(from[priority], tested[priority]);
        int taken = 0;
        while (taken == 0 && count[priority] > 0 && next <= last[priority]) {
            List<Record> records = read(next, priority);
            for (Record r : records) {
                if (r.offset() > last[priority] || taken == limit) {
                    break;
                }
                next = r.offset() + 1;
                if (!isCold(priority, r) || ahead.contains(r.offset()) || !accept.visit(r)) {
                    continue;
                }
                count[priority]--;
                total--;
                if (r.offset() == from[priority]) {
                    from[priority] = next;
                } else {
                    ahead.add(r.offset());
                }
                taken++;
                sink.visit(r);
            }
            if (records.isEmpty() || records.get(records.size() - 1).offset() >= last[priority]) {
                break;
            }
        }
        tested[priority] = Math.max(tested[priority], next);
        return taken;
    }

    /**
     * While replaying: if task {@code id} is cold, takes it out of the backlog (a walk will skip it) and returns its
     * record, so a state record naming it can be applied; otherwise {@code null}.
     */
    Record takeOne(long id) {
        if (id < lowestId()) {
            return null;
        }
        List<Record> r = log.read(id, 1, Long.MAX_VALUE);
        recordsRead += r.size();
        if (r.isEmpty() || r.get(0).offset() != id || r.get(0).key() == null
                || r.get(0).key().length < TaskRecordDescriptor.META_LENGTH) {
            return null;
        }
        Record task = r.get(0);
        int p = TaskRecordDescriptor.Meta.decode(task.key()).priority();
        if (p < 0 || p >= LEVELS || count[p] == 0 || id < from[p] || !isCold(p, task) || ahead.contains(id)) {
            return null;
        }
        count[p]--;
        total--;
        if (id == from[p]) {
            from[p] = id + 1;
        } else {
            ahead.add(id);
        }
        return task;
    }

    /**
     * Empties the backlog, handing its state to the returned copy (purge walks it outside the lock to write the
     * tasks' records, while new tasks are held or go cold afresh here).
     */
    ColdBacklog drain() {
        ColdBacklog out = new ColdBacklog(queue, log);
        System.arraycopy(from, 0, out.from, 0, LEVELS);
        System.arraycopy(count, 0, out.count, 0, LEVELS);
        out.total = total;
        out.ahead.addAll(ahead);
        java.util.Arrays.fill(count, 0);
        total = 0;
        ahead.clear();
        return out;
    }

    /** Its state for a checkpoint: copies of the runs' starts, counts and newest ids, and the ids ahead, sorted. */
    long[][] snapshot() {
        return new long[][] {from.clone(), count.clone(), last.clone(),
                ahead.stream().mapToLong(Long::longValue).sorted().toArray()};
    }

    /** The state a checkpoint kept ({@link #snapshot}), into an empty backlog. */
    void restore(long[] from, long[] count, long[] last, long[] ahead) {
        System.arraycopy(from, 0, this.from, 0, LEVELS);
        System.arraycopy(count, 0, this.count, 0, LEVELS);
        System.arraycopy(last, 0, this.last, 0, LEVELS);
        total = java.util.Arrays.stream(count).sum();
        this.ahead.clear();
        for (long id : ahead) {
            this.ahead.add(id);
        }
    }

    private boolean isCold(int priority, Record r) {
        byte[] key = r.key();
        if (key == null || key.length < TaskRecordDescriptor.META_LENGTH) {
            return false; // a state record
        }
        TaskRecordDescriptor.Meta meta = TaskRecordDescriptor.Meta.decode(key);
        return meta.priority() == priority && readyAtEnqueue(meta, r.timestamp());
    }

    private List<Record> read(long next, int priority) {
        List<Record> records = log.read(next, READ_RECORDS, READ_BYTES);
        recordsRead += records.size();
        if (records.isEmpty()) {
            // The log ends before the counted tasks do: the count is wrong. Never block the queue on it.
            org.slf4j.LoggerFactory.getLogger(ColdBacklog.class).error("task queue '{}': {} tasks of priority {}"
                    + " counted in its log from {} on, but its log ends at {}", queue, count[priority], priority,
                    from[priority], next);
            total -= count[priority];
            count[priority] = 0;
        }
        return records;
    }

    /** With a priority emptied, ids ahead of it are never walked again. */
    private void dropAheadBelow() {
        if (!ahead.isEmpty()) {
            long low = lowestId();
            ahead.removeIf(id -> id < low || total == 0);
        }
    }
}
