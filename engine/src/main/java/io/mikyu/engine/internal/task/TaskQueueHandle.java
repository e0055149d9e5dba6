package io.mikyu.engine.internal.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchEncoder;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;
import io.mikyu.engine.internal.log.Retention;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link TaskQueue} callers hold. Every state change is first decided under the queue's lock on
 * {@link TaskQueueState}, then written to the queue's log as a record through the group-commit writer (outside the
 * lock, so consumers share fsyncs), and only then acknowledged to the caller.
 */
public final class TaskQueueHandle implements TaskQueue {

    private static final Logger LOG = LoggerFactory.getLogger(TaskQueueHandle.class);
    /** How long a failed move to the dead-letter queue waits before it is tried again. */
    private static final long DEAD_LETTER_RETRY_MILLIS = 1000;

    private final String name;
    private final TaskQueueConfig config;
    private final SegmentedLog log;
    private final GroupCommitWriter writer;
    private final EngineConfig engine;
    private final TaskQueueHandle deadLetters;
    private final TaskQueueState state;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile long acked;
    private volatile long deadLettered;

    private TaskQueueHandle(String name, TaskQueueConfig config, SegmentedLog log, GroupCommitWriter writer,
                            EngineConfig engine, TaskQueueHandle deadLetters) {
        this.name = name;
        this.config = config;
        this.log = log;
        this.writer = writer;
        this.engine = engine;
        this.deadLetters = deadLetters;
        this.state = new TaskQueueState(name, config);
    }

    /** Opens a task queue over its recovered log, replaying its records to rebuild the tasks' state. */
    public static TaskQueueHandle open(String name, TaskQueueConfig config, SegmentedLog log, GroupCommitWriter writer,
                                       EngineConfig engine, TaskQueueHandle deadLetters) {
        TaskQueueHandle q = new TaskQueueHandle(name, config, log, writer, engine, deadLetters);
        long now = System.currentTimeMillis();
        log.replay(log.startOffset(), (type, records) -> {
            for (Record r : records) {
                if (type == BatchDescriptor.TYPE_TASK) {
                    q.state.enqueued(r.offset(), TaskRecordDescriptor.Meta.decode(r.key()), r.timestamp(),
                            r.headers(), now);
                } else if (type == BatchDescriptor.TYPE_TASK_STATE) {
                    q.state.replay(TaskRecordDescriptor.State.decode(r.payload()));
                }
            }
        });
        return q;
    }

    public SegmentedLog storage() {
        return log;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public TaskQueueConfig config() {
        return config;
    }

    @Override
    public TaskQueue deadLetters() {
        return deadLetters;
    }

    // ------------------------------------------------------------------------------------------------ enqueue

    @Override
    public long enqueue(Task task, Durability durability) {
        return enqueueBatch(List.of(task), durability);
    }

    @Override
    public long enqueueBatch(List<Task> tasks, Durability durability) {
        long now = System.currentTimeMillis();
        List<Entry> entries = new ArrayList<>(tasks.size());
        for (Task t : tasks) {
            entries.add(new Entry(TaskRecordDescriptor.meta(t.priority(), t.deliverAt(), t.expiresAt()), t.headers(),
                    t.payload(), now));
        }
        long first = write(entries, BatchDescriptor.TYPE_TASK, durability);
        lock.lock();
        try {
            long id = first;
            for (Task t : tasks) {
                state.enqueued(id++, new TaskRecordDescriptor.Meta(t.priority(), t.deliverAt(), t.expiresAt()), now,
                        t.headers(), now);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        return first;
    }

    // ------------------------------------------------------------------------------------------------ dequeue

    @Override
    public List<LeasedTask> dequeue(int max, Duration lease, Duration wait, TaskFilter filter)
            throws InterruptedException {
        if (max <= 0) {
            throw new IllegalArgumentException("max must be positive: " + max);
        }
        if (lease == null || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive: " + lease);
        }
        long deadline = System.nanoTime() + (wait == null ? 0 : wait.toNanos());
        List<TaskEntry> taken;
        List<LeasedTask> handedOut = new ArrayList<>();
        List<Entry> records = new ArrayList<>();
        lock.lockInterruptibly();
        try {
            while (true) {
                checkOpen();
                long now = System.currentTimeMillis();
                deadLetter(state.promote(now));
                long leaseUntil = now + lease.toMillis();
                taken = state.lease(max, filter, now, leaseUntil);
                if (!taken.isEmpty()) {
                    // snapshot under the lock: once it is released, another thread may move these entries on
                    for (TaskEntry e : taken) {
                        records.add(stateRecord(TaskRecordDescriptor.LEASE, e.id, e.lease, leaseUntil, e.attempts,
                                null));
                        handedOut.add(new LeasedTask(e.id, new LeaseToken(e.id, e.lease), e.attempts, e.priority,
                                e.enqueuedAt, e.expiresAt, leaseUntil, e.headers, null));
                    }
                    break;
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return List.of();
                }
                long untilChange = TimeUnit.MILLISECONDS.toNanos(state.millisUntilNextChange(now));
                changed.awaitNanos(Math.min(remaining, Math.max(untilChange, TimeUnit.MILLISECONDS.toNanos(1))));
            }
        } finally {
            lock.unlock();
        }
        List<TaskEntry> leasedNow = taken;
        try {
            write(records, BatchDescriptor.TYPE_TASK_STATE, config.durability());
        } catch (RuntimeException failure) {
            withLock(() -> state.unlease(leasedNow, System.currentTimeMillis()));
            throw failure;
        }
        List<LeasedTask> out = new ArrayList<>(handedOut.size());
        for (LeasedTask t : handedOut) {
            out.add(new LeasedTask(t.id(), t.token(), t.attempt(), t.priority(), t.enqueuedAt(), t.expiresAt(),
                    t.leaseExpiresAt(), t.headers(), readTask(t.id()).payload()));
        }
        return out;
    }

    // ------------------------------------------------------------------------------------- ack, nack, extend

    @Override
    public void ack(LeaseToken token) {
        ack(List.of(token));
    }

    @Override
    public void ack(List<LeaseToken> tokens) {
        if (tokens.isEmpty()) {
            return;
        }
        List<Entry> records = new ArrayList<>(tokens.size());
        withLock(() -> {
            for (LeaseToken t : tokens) {
                TaskEntry e = state.holder(t);
                records.add(stateRecord(TaskRecordDescriptor.ACK, e.id, e.lease, 0, e.attempts, null));
            }
        });
        write(records, BatchDescriptor.TYPE_TASK_STATE, config.durability());
        withLock(() -> {
            for (LeaseToken t : tokens) {
                state.finish(t.taskId());
            }
        });
        acked += tokens.size();
    }

    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        long now = System.currentTimeMillis();
        TaskEntry[] held = new TaskEntry[1];
        int[] attempts = new int[1];
        boolean[] leaving = new boolean[1];
        withLock(() -> {
            TaskEntry h = state.holder(token);
            held[0] = h;
            attempts[0] = h.attempts;
            if (h.attempts >= config.maxAttempts()) {
                state.leave(h, reason == null ? "nacked " + h.attempts + " times" : reason);
                leaving[0] = true;
            }
        });
        TaskEntry e = held[0];
        if (leaving[0]) {
            deadLetter(List.of(e));
            return;
        }
        long visibleAt = now + (delay == null ? config.backoff(attempts[0]) : delay).toMillis();
        write(List.of(stateRecord(TaskRecordDescriptor.NACK, token.taskId(), token.lease(), visibleAt, attempts[0],
                reason)), BatchDescriptor.TYPE_TASK_STATE, config.durability());
        withLock(() -> {
            if (state.holder(token) == e) {
                state.giveBack(e, visibleAt, reason, System.currentTimeMillis());
                changed.signalAll();
            }
        });
    }

    @Override
    public long extend(LeaseToken token, Duration lease) {
        if (lease == null || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive: " + lease);
        }
        long until = System.currentTimeMillis() + lease.toMillis();
        int[] attempts = new int[1];
        withLock(() -> attempts[0] = state.holder(token).attempts);
        write(List.of(stateRecord(TaskRecordDescriptor.EXTEND, token.taskId(), token.lease(), until,
                attempts[0], null)), BatchDescriptor.TYPE_TASK_STATE, config.durability());
        withLock(() -> state.extend(state.holder(token), until));
        return until;
    }

    // ------------------------------------------------------------------------------------------ dead letters

    /**
     * Moves tasks marked LEAVING to the dead-letter queue: enqueue there first, then record DEAD here. A crash
     * between the two leaves the task here, past its attempts, so it is moved again on the next promotion:
     * a dead letter may be duplicated, never lost.
     */
    private void deadLetter(List<TaskEntry> leaving) {
        if (leaving.isEmpty()) {
            return;
        }
        boolean locked = lock.isHeldByCurrentThread();
        if (locked) {
            lock.unlock(); // the writes below must not hold the queue
        }
        try {
            for (TaskEntry e : leaving) {
                moveToDeadLetters(e);
            }
        } finally {
            if (locked) {
                lock.lock();
            }
        }
    }

    private void moveToDeadLetters(TaskEntry e) {
        try {
            if (deadLetters == null) {
                throw new MikyuException("task queue '" + name + "' has no dead-letter queue");
            }
            Record r = readTask(e.id);
            Headers.Builder hb = Headers.builder();
            for (Headers.Header h : e.headers.asList()) {
                hb.add(h.name(), h.value());
            }
            hb.add(DLQ_ORIGINAL_QUEUE, name).add(DLQ_ORIGINAL_ID, Long.toString(e.id))
                    .add(DLQ_ATTEMPTS, Integer.toString(e.attempts))
                    .add(DLQ_REASON, e.lastReason == null ? "" : e.lastReason);
            deadLetters.enqueue(new Task(r.payload(), hb.build(), e.priority, 0, 0), config.durability());
            write(List.of(stateRecord(TaskRecordDescriptor.DEAD, e.id, e.lease, System.currentTimeMillis(),
                    e.attempts, e.lastReason)), BatchDescriptor.TYPE_TASK_STATE, config.durability());
            withLock(() -> state.finish(e.id));
            deadLettered++;
        } catch (RuntimeException failure) {
            LOG.warn("moving task {} of task queue '{}' to its dead-letter queue failed; retrying later", e.id, name,
                    failure);
            long now = System.currentTimeMillis();
            withLock(() -> state.stay(e, now + DEAD_LETTER_RETRY_MILLIS, now));
        }
    }

    // --------------------------------------------------------------------------------------- browse & counts

    @Override
    public List<LeasedTask> browse(int max, TaskFilter filter) {
        List<TaskEntry> entries = new ArrayList<>();
        withLock(() -> {
            long now = System.currentTimeMillis();
            deadLetter(state.promote(now));
            entries.addAll(state.browse(max, filter, now));
        });
        List<LeasedTask> out = new ArrayList<>(entries.size());
        for (TaskEntry e : entries) {
            out.add(new LeasedTask(e.id, null, e.attempts, e.priority, e.enqueuedAt, e.expiresAt, 0, e.headers,
                    readTask(e.id).payload()));
        }
        return out;
    }

    @Override
    public long purge() {
        List<Long> ids = new ArrayList<>();
        withLock(() -> ids.addAll(state.purge()));
        if (!ids.isEmpty()) {
            List<Entry> records = new ArrayList<>(ids.size());
            for (Long id : ids) {
                records.add(stateRecord(TaskRecordDescriptor.ACK, id, 0, 0, 0, "purged"));
            }
            write(records, BatchDescriptor.TYPE_TASK_STATE, config.durability());
        }
        return ids.size();
    }

    @Override
    public TaskCounts counts() {
        TaskCounts[] c = new TaskCounts[1];
        withLock(() -> {
            deadLetter(state.promote(System.currentTimeMillis()));
            c[0] = state.counts();
        });
        return c[0];
    }

    @Override
    public QueueStats stats() {
        TaskCounts c = counts();
        return new QueueStats(name, QueueKind.TASK, log.startOffset(), log.endOffset(), c.depth(), log.bytesOnDisk(),
                log.segmentCount(), log.appendedRecords(), log.appendedBytes(), log.readRecords(), log.cacheHits(),
                log.cacheMisses());
    }

    public long ackedCount() {
        return acked;
    }

    public long deadLetteredCount() {
        return deadLettered;
    }

    /** Housekeeping: promotes due tasks, drops idle filters, and deletes log segments holding no live task. */
    public void housekeeping() {
        long[] lowest = new long[1];
        withLock(() -> {
            long now = System.currentTimeMillis();
            deadLetter(state.promote(now));
            state.dropIdleFilters(now);
            lowest[0] = state.lowestLiveId();
            if (state.hasReady()) {
                changed.signalAll();
            }
        });
        try {
            Retention.dropSegmentsBelow(log, Math.min(lowest[0], log.endOffset()));
        } catch (IOException e) {
            throw new UncheckedIOException("cleaning " + log.describe(), e);
        }
    }

    /** Wakes waiting consumers (on close: they then see the queue closed). */
    public void wakeAll() {
        withLock(changed::signalAll);
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private long write(List<Entry> entries, byte type, Durability durability) {
        checkOpen();
        byte[] batch = BatchEncoder.encode(entries, System.currentTimeMillis(), engine.maxRecordBytes(),
                engine.maxBatchBytes(), type);
        return writer.append(new AppendRequest(log, batch, durability == Durability.SYNC));
    }

    /** The task record of {@code id}: its offset in the log. */
    private Record readTask(long id) {
        List<Record> r = log.read(id, 1, Long.MAX_VALUE);
        if (r.isEmpty() || r.get(0).offset() != id) {
            throw new MikyuException("task " + id + " of task queue '" + name + "' has no record in the log");
        }
        return r.get(0);
    }

    private static Entry stateRecord(byte op, long id, long lease, long time, int attempts, String reason) {
        return new Entry(null, Headers.EMPTY, TaskRecordDescriptor.state(op, id, lease, time, attempts, reason),
                Entry.NO_TIMESTAMP);
    }

    private void withLock(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    private void checkOpen() {
        if (!log.isOpen()) {
            throw new StoreClosedException(log.describe() + " is closed");
        }
    }

    @Override
    public String toString() {
        return "TaskQueue[" + name + "]";
    }
}
