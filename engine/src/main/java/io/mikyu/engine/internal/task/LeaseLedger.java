package io.mikyu.engine.internal.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Record;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchEncoder;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import io.mikyu.engine.TimeSource;

/**
 * Leases, acks, nacks and dead letters over a set of work items, shared by task queues (the items are the
 * queue's own task records) and shared consumer groups (the items are a log queue's records).
 *
 * <p>Each change is decided under the lock on {@link TaskQueueState}, written as a state record through the
 * group-commit writer outside the lock (so concurrent consumers share fsyncs), and only then acknowledged.
 *
 * <p>Under the same lock: {@link WaitingConsumers} wakes consumers, {@link ProducerPacing} holds producers back,
 * {@link DeadLetterMover} moves what leaves, {@link LedgerTransactions} applies what transactions decide.
 */
final class LeaseLedger {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseLedger.class);

    final String name;
    final TaskQueueConfig config;
    final SegmentedLog stateLog;
    /** See {@link #transactionWritten}. */
    private final java.util.concurrent.atomic.AtomicLong transactionWrittenEnd =
            new java.util.concurrent.atomic.AtomicLong();
    final TaskQueueState state;
    final ReentrantLock lock = new ReentrantLock();
    private final GroupCommitWriter writer;
    final EngineConfig engine;
    /** Wall time stamps records; steady time times leases and backoffs. */
    final TimeSource clock;
    /** The timestamp stamped on state records (shared groups store their window end there). */
    private final LongSupplier stateStamp;
    volatile long acked;

    /** The consumers waiting for a change, woken as items become ready. */
    final WaitingConsumers waiting;
    /** Moves what runs out of attempts to the dead-letter queue. */
    final DeadLetterMover deadLetters;
    /** The settlements transactions decide. */
    final LedgerTransactions transactions;
    /** Producer pacing: how enqueues wait for consumers of a crowded queue. */
    final ProducerPacing pacing;
    /** Decided, maybe written, not yet applied: what a checkpoint of the memory must replay (LedgerCheckpoints). */
    final UnappliedDecisions unapplied = new UnappliedDecisions();
    /** The end of the last batch written through this ledger whose completion ran (completions come in log order). */
    final java.util.concurrent.atomic.AtomicLong writtenEnd = new java.util.concurrent.atomic.AtomicLong();

    LeaseLedger(String name, TaskQueueConfig config, SegmentedLog stateLog, GroupCommitWriter writer,
                EngineConfig engine, TaskQueueHandle deadLetters, LongFunction<Record> item, LongSupplier stateStamp,
                boolean window, String txTarget, Consumer<List<TxOp>> commitTransaction,
                ColdBacklog.LogReader coldReader) {
        this.name = name;
        this.config = config;
        this.stateLog = stateLog;
        this.writer = writer;
        this.engine = engine;
        this.clock = engine.timeSource();
        this.stateStamp = stateStamp;
        this.state = new TaskQueueState(name, config, clock, engine.cacheBytesPerQueue(), window,
                coldReader == null ? 0 : engine.taskWindow(), coldReader);
        this.deadLetters = new DeadLetterMover(name, lock, state, clock, deadLetters, item, txTarget,
                commitTransaction);
        this.transactions = new LedgerTransactions(this);
        this.waiting = new WaitingConsumers(name, lock, state);
        this.pacing = new ProducerPacing(lock, state, engine.paceProducersAbove(), clock);
        this.state.groups.onChange(waiting::wakeAll, this::withLock);
    }

    /** Leases are taken by the caller under {@link #lock}; this snapshots them and their lease records. */
    record Taken(List<TaskEntry> entries, List<Entry> records, List<LeasedTask> handedOut) {

        /** Several takes of one call as one (a take that went on after the window was topped up). */
        static Taken of(List<Taken> takes) {
            if (takes.size() == 1) {
                return takes.get(0);
            }
            List<TaskEntry> entries = new ArrayList<>();
            List<Entry> records = new ArrayList<>();
            List<LeasedTask> handedOut = new ArrayList<>();
            for (Taken t : takes) {
                entries.addAll(t.entries());
                records.addAll(t.records());
                handedOut.addAll(t.handedOut());
            }
            return new Taken(entries, records, handedOut);
        }
    }

    /** The arguments every take checks: {@code max} items under a lease of {@code lease}. */
    static void checkTake(int max, Duration lease) {
        if (max <= 0) {
            throw new IllegalArgumentException("max must be positive: " + max);
        }
        checkLease(lease);
    }

    static void checkLease(Duration lease) {
        if (lease == null || lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive: " + lease);
        }
    }

    /**
     * Under the lock: leases up to {@code max} ready items. Empty if none is ready. Items left ready go to the next
     * waiting consumer ({@link WaitingConsumers#passOn}).
     */
    Taken take(int max, TaskFilter filter, long now, long leaseUntil) {
        List<TaskEntry> taken = state.lease(max, filter, now, leaseUntil);
        if (!taken.isEmpty()) {
            waiting.passOn();
            pacing.took(taken.size());
        }
        List<Entry> records = new ArrayList<>(taken.size());
        List<LeasedTask> handedOut = new ArrayList<>(taken.size());
        for (TaskEntry e : taken) {
            if (!e.isTransient()) {
                records.add(stateRecord(TaskRecordDescriptor.LEASE, e.id, e.lease, leaseUntil, e.attempts, null));
            }
            handedOut.add(new LeasedTask(e.id, new LeaseToken(e.id, e.lease), e.attempts, e.priority, e.enqueuedAt,
                    e.expiresAt, leaseUntil, e.headers(), e.payload, e.leaseRanOut));
        }
        return new Taken(taken, records, handedOut);
    }

    /**
     * A transaction wrote tasks below {@code end} without fsyncing them (its COMMIT record is their durable copy).
     * Until the log is fsynced that far, leases are fsynced (and so the tasks with them): a consumer never holds a
     * task whose record a power loss could take, which recovery would write again under another id.
     */
    void transactionWritten(long end) {
        transactionWrittenEnd.accumulateAndGet(end, Math::max);
    }

    /** The durability of {@code taken}'s lease records: the queue's, or SYNC if a task may not be fsynced yet. */
    private Durability leaseDurability(Taken taken) {
        long written = transactionWrittenEnd.get();
        long durable = stateLog.durableEnd();
        if (written > durable) {
            for (TaskEntry e : taken.entries()) {
                if (e.id >= durable && e.id < written && !e.isTransient()) {
                    return Durability.SYNC;
                }
            }
        }
        return config.durability();
    }

    /** Outside the lock: writes the lease records of {@code taken}, undoing the leases if that fails. */
    void record(Taken taken) {
        try {
            writeState(taken.records(), leaseDurability(taken));
        } catch (RuntimeException failure) {
            unlease(taken);
            throw failure;
        }
    }

    /**
     * As {@link #record} without waiting: {@code written} runs on {@code continuation} once the lease records are
     * written (at once if every item is in memory only); if they cannot be, the leases are undone and {@code failed}
     * hears why, on {@code continuation} too, or from this call if the write could not even start.
     */
    void recordAsync(Taken taken, Executor continuation, Runnable written, Consumer<RuntimeException> failed) {
        if (taken.records().isEmpty()) {
            AppendRequest.handOn(continuation, written);
            return;
        }
        AppendRequest.Callback callback = new AppendRequest.Callback() {
            @Override
            public void completed(long first) {
                AppendRequest.handOn(continuation, written);
            }

            @Override
            public void failed(RuntimeException cause) {
                AppendRequest.handOn(continuation, () -> {
                    unlease(taken);
                    failed.accept(cause);
                });
            }
        };
        try {
            writeAsync(taken.records(), BatchDescriptor.TYPE_TASK_STATE, leaseDurability(taken), callback);
        } catch (RuntimeException e) {
            unlease(taken); // not started (the queue is closing): nothing was written
            throw e;
        }
    }

    /** Leases whose records could not be written end now: their items are ready again, no attempt counted. */
    private void unlease(Taken taken) {
        withLock(() -> {
            state.unlease(taken.entries(), clock.steadyMillis());
            waiting.wakeAll();
        });
    }

    /** {@code durability} null: the queue's own. */
    void ack(List<LeaseToken> tokens, Durability durability) {
        if (tokens.isEmpty()) {
            return;
        }
        List<Entry> records = new ArrayList<>(tokens.size());
        List<TaskEntry> finishing = new ArrayList<>(tokens.size());
        long[] decision = new long[1];
        withLock(() -> {
            for (LeaseToken t : tokens) {
                state.holder(t); // all or none: check every token before taking any
            }
            decision[0] = unapplied.decided(stateLog.endOffset());
            for (LeaseToken t : tokens) {
                TaskEntry e = state.holder(t);
                if (!e.isTransient()) {
                    records.add(stateRecord(TaskRecordDescriptor.ACK, e.id, e.lease, 0, e.attempts, null));
                }
                state.beginFinish(e);
                finishing.add(e);
            }
        });
        try {
            writeState(records, durability);
        } catch (RuntimeException failure) {
            withLock(() -> {
                finishing.forEach(state::abortFinish);
                unapplied.applied(decision[0]);
            });
            throw failure;
        }
        withLock(() -> {
            for (TaskEntry e : finishing) {
                state.finish(e.id);
            }
            unapplied.applied(decision[0]);
        });
        acked += tokens.size();
    }

    void nack(LeaseToken token, Duration delay, String reason) {
        long now = clock.steadyMillis();
        TaskEntry[] held = new TaskEntry[1];
        int[] attempts = new int[1];
        boolean[] leaving = new boolean[1];
        long[] decision = new long[1];
        withLock(() -> {
            TaskEntry h = state.holder(token);
            held[0] = h;
            attempts[0] = h.attempts;
            if (h.attempts >= config.maxAttempts()) {
                state.leave(h, reason == null ? "nacked " + h.attempts + " times" : reason);
                leaving[0] = true;
            } else {
                decision[0] = unapplied.decided(stateLog.endOffset());
            }
        });
        if (leaving[0]) {
            deadLetters.moveOrThrow(held[0]);
            return;
        }
        try {
            long visibleAt = now + (delay == null ? config.backoff(attempts[0]) : delay).toMillis();
            if (!held[0].isTransient()) {
                writeState(List.of(stateRecord(TaskRecordDescriptor.NACK, token.taskId(), token.lease(), visibleAt,
                        attempts[0], reason)));
            }
            withLock(() -> {
                if (state.holder(token) == held[0]) {
                    state.giveBack(held[0], visibleAt, reason, clock.steadyMillis());
                    waiting.wakeAll();
                }
            });
        } finally {
            withLock(() -> unapplied.applied(decision[0]));
        }
    }

    /**
     * Gives leased items back as never delivered: ready at once, the lease not counted as an attempt. The state
     * record is a nack carrying the lowered attempt count, which replay applies as it is.
     */
    void returnUndelivered(List<LeaseToken> tokens) {
        if (tokens.isEmpty()) {
            return;
        }
        long now = clock.steadyMillis();
        List<Entry> records = new ArrayList<>(tokens.size());
        List<TaskEntry> held = new ArrayList<>(tokens.size());
        long[] decision = new long[1];
        withLock(() -> {
            for (LeaseToken t : tokens) {
                state.holder(t);
            }
            decision[0] = unapplied.decided(stateLog.endOffset());
            for (LeaseToken t : tokens) {
                TaskEntry e = state.holder(t);
                held.add(e);
                if (!e.isTransient()) {
                    records.add(stateRecord(TaskRecordDescriptor.NACK, e.id, e.lease, now,
                            Math.max(0, e.attempts - 1), "returned undelivered"));
                }
            }
        });
        try {
            writeState(records);
        } catch (RuntimeException failure) {
            withLock(() -> unapplied.applied(decision[0]));
            throw failure;
        }
        withLock(() -> {
            for (int i = 0; i < tokens.size(); i++) {
                TaskEntry e = held.get(i);
                if (state.find(e.id) == e && e.lease == tokens.get(i).lease()
                        && e.state == TaskEntry.State.LEASED) {
                    e.attempts = Math.max(0, e.attempts - 1);
                    state.giveBackUndelivered(e, "returned undelivered", now);
                }
            }
            unapplied.applied(decision[0]);
            waiting.wakeAll();
        });
    }

    /** As {@link #extend(LeaseToken, Duration)} for several leases, with one write; -1 for those that do not hold. */
    long[] extend(List<LeaseToken> tokens, Duration lease) {
        checkLease(lease);
        long until = clock.steadyMillis() + lease.toMillis();
        long[] result = new long[tokens.size()];
        List<Entry> records = new ArrayList<>(tokens.size());
        long[] decision = new long[1];
        withLock(() -> {
            promote(clock.steadyMillis()); // a lease that ran out is over, whether or not the timer saw it yet
            decision[0] = unapplied.decided(stateLog.endOffset());
            for (int i = 0; i < result.length; i++) {
                LeaseToken t = tokens.get(i);
                try {
                    TaskEntry e = state.holder(t);
                    result[i] = until;
                    if (!e.isTransient()) {
                        records.add(stateRecord(TaskRecordDescriptor.EXTEND, t.taskId(), t.lease(), until,
                                e.attempts, null));
                    }
                } catch (StaleLeaseException e) {
                    result[i] = -1;
                }
            }
        });
        try {
            if (!records.isEmpty()) {
                writeState(records);
            }
        } catch (RuntimeException failure) {
            withLock(() -> unapplied.applied(decision[0]));
            throw failure;
        }
        withLock(() -> {
            unapplied.applied(decision[0]);
            for (int i = 0; i < result.length; i++) {
                if (result[i] < 0) {
                    continue;
                }
                try {
                    state.extend(state.holder(tokens.get(i)), until);
                } catch (StaleLeaseException e) {
                    result[i] = -1;   // ended while the records were written
                }
            }
            waiting.wakeAll();
        });
        return result;
    }

    /** Whether {@code token}'s lease still holds (not acked, nacked, given back, ended or held by a transaction). */
    boolean holds(LeaseToken token) {
        boolean[] held = new boolean[1];
        withLock(() -> {
            try {
                state.holder(token);
                held[0] = true;
            } catch (StaleLeaseException e) {
                held[0] = false;
            }
        });
        return held[0];
    }

    long extend(LeaseToken token, Duration lease) {
        checkLease(lease);
        long until = clock.steadyMillis() + lease.toMillis();
        int[] attempts = new int[1];
        boolean[] inMemory = new boolean[1];
        long[] decision = new long[1];
        withLock(() -> {
            promote(clock.steadyMillis()); // as above: an ended lease is not brought back
            TaskEntry e = state.holder(token);
            attempts[0] = e.attempts;
            inMemory[0] = e.isTransient();
            decision[0] = unapplied.decided(stateLog.endOffset());
        });
        try {
            if (!inMemory[0]) {
                writeState(List.of(stateRecord(TaskRecordDescriptor.EXTEND, token.taskId(), token.lease(), until,
                        attempts[0], null)));
            }
            withLock(() -> {
                state.extend(state.holder(token), until);
                waiting.wakeAll(); // a shorter lease may free the task sooner than waiters planned for
            });
        } finally {
            withLock(() -> unapplied.applied(decision[0]));
        }
        return until;
    }

    /** Under the lock: applies the clock, moving what must leave to the dead-letter queue. */
    void promote(long now) {
        deadLetters.move(state.promote(now));
    }

    /**
     * Applies the clock if something is due, so an ended lease is redelivered or dead-lettered on time even when
     * nobody is dequeuing (the worker that held it may be the one that died). Skips if the queue is busy: its
     * users promote as they go.
     */
    void tick() {
        if (clock.steadyMillis() < state.nextChangeAt() || !stateLog.isOpen() || !lock.tryLock()) {
            return; // nothing due: no lock taken, the common case of an idle queue
        }
        try {
            long now = clock.steadyMillis();
            if (state.millisUntilNextChange(now) == 0) {
                promote(now);
                waiting.wakeAll();
            } else {
                state.refreshNextChange(now); // what lowered it has left since
            }
        } finally {
            lock.unlock();
        }
    }

    /** Open, with a lease or a delay that will end: what keeps it among the timer's {@link DueLedgers}. */
    boolean waitsForTime() {
        return stateLog.isOpen() && state.nextChangeAt() != Long.MAX_VALUE;
    }

    TaskCounts counts() {
        TaskCounts[] c = new TaskCounts[1];
        withLock(() -> {
            promote(clock.steadyMillis());
            c[0] = state.counts();
        });
        return c[0];
    }

    long ackedCount() {
        return acked;
    }

    /** As {@link #write}, without waiting: {@code callback} hears the outcome on the writer thread. */
    void writeAsync(List<Entry> entries, byte type, Durability durability, AppendRequest.Callback callback) {
        writeAsync(entries, type, durability, null, callback);
    }

    /** As {@link #writeAsync}; {@code written} (if not null) as {@link AppendRequest#onWritten}. */
    void writeAsync(List<Entry> entries, byte type, Durability durability, java.util.function.LongConsumer written,
                    AppendRequest.Callback callback) {
        writer.appendAsync(new AppendRequest(stateLog, encode(entries, type), durability == Durability.SYNC, null,
                callback).onWritten(noting(written, entries.size())));
    }

    /** Writes items of a work log (task records) or state records; returns the first offset. */
    long write(List<Entry> entries, byte type, Durability durability) {
        return write(entries, type, durability, null);
    }

    /** As {@link #write}; {@code written} (if not null) as {@link AppendRequest#onWritten}. */
    long write(List<Entry> entries, byte type, Durability durability, java.util.function.LongConsumer written) {
        return writer.append(new AppendRequest(stateLog, encode(entries, type), durability == Durability.SYNC)
                .onWritten(noting(written, entries.size())));
    }

    /**
     * {@code written} (may be null), then the end of the batch of {@code records} noted in {@link #writtenEnd}: in
     * that order, so a batch of new tasks below {@link #writtenEnd} is always waiting to join already.
     */
    java.util.function.LongConsumer noting(java.util.function.LongConsumer written, int records) {
        return base -> {
            if (written != null) {
                written.accept(base);
            }
            writtenEnd.accumulateAndGet(base + records, Math::max);
        };
    }

    private byte[] encode(List<Entry> entries, byte type) {
        checkOpen();
        return BatchEncoder.encode(entries, clock.wallMillis(), engine.maxRecordBytes(),
                engine.maxBatchBytes(), type);
    }

    void writeState(List<Entry> records) {
        writeState(records, null);
    }

    void writeState(List<Entry> records, Durability durability) {
        if (records.isEmpty()) {
            return; // every item was transient
        }
        write(records, BatchDescriptor.TYPE_TASK_STATE, durability == null ? config.durability() : durability);
    }

    Entry stateRecord(byte op, long id, long lease, long time, int attempts, String reason) {
        return new Entry(null, Headers.EMPTY, TaskRecordDescriptor.state(op, id, lease, time, attempts, reason),
                stateStamp.getAsLong());
    }

    /** Replays one state record (or a task record for task queues) while opening. */
    void replay(byte type, Record r, long now) {
        if (type == BatchDescriptor.TYPE_TASK) {
            state.enqueued(r.offset(), TaskRecordDescriptor.Meta.decode(r.key()), r.timestamp(), r.headers(), now);
        } else if (type == BatchDescriptor.TYPE_TASK_STATE) {
            state.replay(TaskRecordDescriptor.State.decode(r.payload()));
        }
    }

    void withLock(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    void checkOpen() {
        if (!stateLog.isOpen()) {
            throw new StoreClosedException(stateLog.describe() + " is closed");
        }
    }
}
