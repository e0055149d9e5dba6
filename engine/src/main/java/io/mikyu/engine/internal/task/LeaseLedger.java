package io.mikyu.engine.internal.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.Record;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchEncoder;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.txn.TransactionManager;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
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
 */
final class LeaseLedger {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseLedger.class);
    /** How long a failed move to the dead-letter queue waits before it is tried again. */
    private static final long DEAD_LETTER_RETRY_MILLIS = 1000;

    final String name;
    final TaskQueueConfig config;
    final SegmentedLog stateLog;
    /** See {@link #transactionWritten}. */
    private final java.util.concurrent.atomic.AtomicLong transactionWrittenEnd =
            new java.util.concurrent.atomic.AtomicLong();
    final TaskQueueState state;
    final ReentrantLock lock = new ReentrantLock();
    final Condition changed = lock.newCondition();
    private final GroupCommitWriter writer;
    private final EngineConfig engine;
    /** Wall time stamps records; steady time times leases and backoffs. */
    private final TimeSource clock;
    private final TaskQueueHandle deadLetters;
    /** This ledger as a transaction participant (a {@link io.mikyu.engine.internal.txn.TxTarget} name). */
    private final String txTarget;
    /** Commits a transaction of the store: how dead letters move atomically. */
    private final Consumer<List<TxOp>> transactions;
    /** The work item (task or log record) of an id, for its payload and headers. */
    private final LongFunction<Record> item;
    /** The timestamp stamped on state records (shared groups store their window end there). */
    private final LongSupplier stateStamp;
    private volatile long acked;
    private volatile long deadLettered;
    /** Dequeuers waiting on {@link #changed} with a filter (guarded by the lock); see {@link #signalReady}. */
    private int filteredWaiters;
    /** One-shot wake-ups of consumers that wait without a thread (AsyncDequeue), guarded by the lock. */
    private final Set<Runnable> readyListeners = new LinkedHashSet<>();

    // Producer pacing (EngineConfig#paceProducersAbove): counters guarded by the lock, flags read without it.
    private final Condition roomFreed = lock.newCondition();
    private final int paceAbove;
    private volatile boolean crowded;
    private volatile long lastTakeNanos = System.nanoTime() - CONSUMERS_IDLE_NANOS;
    private long takenTotal;
    /** The take count the last paced producer waits for. */
    private long paceTarget;
    /** When this thread last took from this queue: a consumer that also produces is never paced by itself. */
    private final ThreadLocal<long[]> lastTakeHere = ThreadLocal.withInitial(() -> new long[1]);
    private long pacedWaits;
    /** Producers paced without a thread ({@link #awaitRoomAsync}): a take makes them look again. */
    private final List<PacedProducer> pacedProducers = new ArrayList<>();
    /** Consumers that took nothing for this long are not busy: slow workers do not hold producers back. */
    private static final long CONSUMERS_IDLE_NANOS = 20_000_000L;

    LeaseLedger(String name, TaskQueueConfig config, SegmentedLog stateLog, GroupCommitWriter writer,
                EngineConfig engine, TaskQueueHandle deadLetters, LongFunction<Record> item, LongSupplier stateStamp,
                boolean window, String txTarget, Consumer<List<TxOp>> transactions) {
        this.name = name;
        this.txTarget = txTarget;
        this.transactions = transactions;
        this.config = config;
        this.stateLog = stateLog;
        this.writer = writer;
        this.engine = engine;
        this.clock = engine.timeSource();
        this.deadLetters = deadLetters;
        this.item = item;
        this.stateStamp = stateStamp;
        this.state = new TaskQueueState(name, config, clock, engine.cacheBytesPerQueue(), window);
        this.paceAbove = engine.paceProducersAbove();
    }

    TaskQueueHandle deadLetters() {
        return deadLetters;
    }

    /** Leases are taken by the caller under {@link #lock}; this snapshots them and their lease records. */
    record Taken(List<TaskEntry> entries, List<Entry> records, List<LeasedTask> handedOut) {
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
     * waiting consumer ({@link #passOn}).
     */
    Taken take(int max, TaskFilter filter, long now, long leaseUntil) {
        List<TaskEntry> taken = state.lease(max, filter, now, leaseUntil);
        if (!taken.isEmpty()) {
            passOn();
            lastTakeNanos = System.nanoTime();
            lastTakeHere.get()[0] = lastTakeNanos;
            takenTotal += taken.size();
            if (crowded) {
                crowded = state.readyCount() > paceAbove;
                if (lock.hasWaiters(roomFreed)) {
                    roomFreed.signalAll();
                }
                if (!pacedProducers.isEmpty()) {
                    for (PacedProducer p : pacedProducers) {
                        p.lookAgain();
                    }
                    pacedProducers.clear();
                }
            }
        }
        List<Entry> records = new ArrayList<>(taken.size());
        List<LeasedTask> handedOut = new ArrayList<>(taken.size());
        for (TaskEntry e : taken) {
            if (!e.isTransient()) {
                records.add(stateRecord(TaskRecordDescriptor.LEASE, e.id, e.lease, leaseUntil, e.attempts, null));
            }
            handedOut.add(new LeasedTask(e.id, new LeaseToken(e.id, e.lease), e.attempts, e.priority, e.enqueuedAt,
                    e.expiresAt, leaseUntil, e.headers, e.payload, e.leaseRanOut));
        }
        return new Taken(taken, records, handedOut);
    }

    /**
     * Paces a producer about to add {@code incoming} tasks: while the queue is crowded (more ready tasks than
     * {@link io.mikyu.engine.EngineConfig#paceProducersAbove()}) and its consumers are taking tasks, wait until
     * they have taken as many as this producer (after those waiting before it) adds, or the backlog fell under the
     * limit, or they stopped taking, or {@link io.mikyu.engine.EngineConfig#PACING_MAX_WAIT} passed. A queue nobody consumes from is never paced:
     * it buffers at full speed. Producers and consumers then share the machine in proportion to the work, and
     * the backlog the consumers work through stays in memory.
     */
    void awaitRoom(int incoming) {
        if (!wouldPace()) {
            return;
        }
        // A worker that takes tasks and enqueues follow-ups (or retries) would wait for its own takes.
        long mine = lastTakeHere.get()[0];
        if (mine != 0 && System.nanoTime() - mine <= CONSUMERS_IDLE_NANOS) {
            return;
        }
        lock.lock();
        try {
            long deadline = System.nanoTime() + EngineConfig.PACING_MAX_WAIT.toNanos();
            // Producers take turns: each waits for its own share of the consumers' takes, so four producers
            // waiting at once add what the consumers took, not four times that.
            long target = Math.max(takenTotal, paceTarget) + incoming;
            paceTarget = target;
            pacedWaits++;
            while (crowded && takenTotal < target && System.nanoTime() - lastTakeNanos <= CONSUMERS_IDLE_NANOS) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    break;
                }
                // Wake at least once per idle period: consumers that stopped taking send no signal.
                roomFreed.awaitNanos(Math.min(remaining, CONSUMERS_IDLE_NANOS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the enqueue goes on; the caller sees the flag
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@link #awaitRoom} without holding a thread: {@code proceed} runs at once on this thread if the producer need
     * not wait, else on {@code timer} once it may go on (under the same rules and the same longest wait). Returns
     * whether it waits.
     */
    boolean awaitRoomAsync(int incoming, ScheduledExecutorService timer, Runnable proceed) {
        long target;
        lock.lock();
        try {
            if (!wouldPace()) {
                target = -1;
            } else {
                target = Math.max(takenTotal, paceTarget) + incoming;
                paceTarget = target;
                pacedWaits++;
            }
        } finally {
            lock.unlock();
        }
        if (target < 0) {
            proceed.run();
            return false;
        }
        PacedProducer paced = new PacedProducer(target, System.nanoTime() + EngineConfig.PACING_MAX_WAIT.toNanos(),
                timer, proceed);
        try {
            timer.execute(paced::tick);
        } catch (RejectedExecutionException e) {
            paced.go(); // the timer is shutting down: do not hold the producer
        }
        return true;
    }

    /**
     * A producer waiting for its share of the consumers' takes: looks again after each take and, on its timer, at
     * least once per idle period (consumers that stopped taking send no signal) until its longest wait is over.
     */
    private final class PacedProducer {
        private final long target;
        private final long deadline;
        private final ScheduledExecutorService timer;
        private final Runnable proceed;
        private final AtomicBoolean done = new AtomicBoolean();

        PacedProducer(long target, long deadline, ScheduledExecutorService timer, Runnable proceed) {
            this.target = target;
            this.deadline = deadline;
            this.timer = timer;
            this.proceed = proceed;
        }

        /** Under the lock, from a take: look again on the timer's thread. */
        void lookAgain() {
            try {
                timer.execute(this::check);
            } catch (RejectedExecutionException e) {
                // the timer is shut down: its own tick has gone with it, and so has whoever waits for this
            }
        }

        /** The timer's round: look, and come back within an idle period while still waiting. */
        void tick() {
            if (check()) {
                return;
            }
            long delay = Math.max(0, Math.min(deadline - System.nanoTime(), CONSUMERS_IDLE_NANOS));
            try {
                timer.schedule(this::tick, delay, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                go(); // the timer is shutting down: do not hold the producer
            }
        }

        /** Proceeds if the producer may go on; true if it did (now or before). */
        private boolean check() {
            if (done.get()) {
                return true;
            }
            lock.lock();
            try {
                long now = System.nanoTime();
                boolean wait = crowded && takenTotal < target && now - lastTakeNanos <= CONSUMERS_IDLE_NANOS
                        && now < deadline;
                if (wait) {
                    if (!pacedProducers.contains(this)) {
                        pacedProducers.add(this);
                    }
                    return false;
                }
                pacedProducers.remove(this);
            } finally {
                lock.unlock();
            }
            go();
            return true;
        }

        private void go() {
            if (done.compareAndSet(false, true)) {
                proceed.run();
            }
        }
    }

    /** How many enqueues were paced (waited for consumers) so far. */
    long pacedWaits() {
        lock.lock();
        try {
            return pacedWaits;
        } finally {
            lock.unlock();
        }
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
    private void passOn() {
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
        withLock(() -> readyListeners.remove(whenReady));
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
                LOG.warn("a ready listener of '{}' failed", name, e);
            }
        }
    }

    /** Under the lock, after tasks became ready: whether producers are to be paced from now on. */
    void noteReady() {
        if (paceAbove > 0 && !crowded && state.readyCount() > paceAbove) {
            crowded = true;
        }
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
            wakeAll();
        });
    }

    /** {@code durability} null: the queue's own. */
    void ack(List<LeaseToken> tokens, Durability durability) {
        if (tokens.isEmpty()) {
            return;
        }
        List<Entry> records = new ArrayList<>(tokens.size());
        List<TaskEntry> finishing = new ArrayList<>(tokens.size());
        withLock(() -> {
            for (LeaseToken t : tokens) {
                state.holder(t); // all or none: check every token before taking any
            }
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
            withLock(() -> finishing.forEach(state::abortFinish));
            throw failure;
        }
        withLock(() -> {
            for (TaskEntry e : finishing) {
                state.finish(e.id);
            }
        });
        acked += tokens.size();
    }

    void nack(LeaseToken token, Duration delay, String reason) {
        long now = clock.steadyMillis();
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
        if (leaving[0]) {
            deadLetter(List.of(held[0]));
            return;
        }
        long visibleAt = now + (delay == null ? config.backoff(attempts[0]) : delay).toMillis();
        if (!held[0].isTransient()) {
            writeState(List.of(stateRecord(TaskRecordDescriptor.NACK, token.taskId(), token.lease(), visibleAt,
                    attempts[0], reason)));
        }
        withLock(() -> {
            if (state.holder(token) == held[0]) {
                state.giveBack(held[0], visibleAt, reason, clock.steadyMillis());
                wakeAll();
            }
        });
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
        withLock(() -> {
            for (LeaseToken t : tokens) {
                state.holder(t);
            }
            for (LeaseToken t : tokens) {
                TaskEntry e = state.holder(t);
                held.add(e);
                if (!e.isTransient()) {
                    records.add(stateRecord(TaskRecordDescriptor.NACK, e.id, e.lease, now,
                            Math.max(0, e.attempts - 1), "returned undelivered"));
                }
            }
        });
        writeState(records);
        withLock(() -> {
            for (int i = 0; i < tokens.size(); i++) {
                TaskEntry e = held.get(i);
                if (state.find(e.id) == e && e.lease == tokens.get(i).lease()
                        && e.state == TaskEntry.State.LEASED) {
                    e.attempts = Math.max(0, e.attempts - 1);
                    state.giveBackUndelivered(e, "returned undelivered", now);
                }
            }
            wakeAll();
        });
    }

    /** As {@link #extend(LeaseToken, Duration)} for several leases, with one write; -1 for those that do not hold. */
    long[] extend(List<LeaseToken> tokens, Duration lease) {
        checkLease(lease);
        long until = clock.steadyMillis() + lease.toMillis();
        long[] result = new long[tokens.size()];
        List<Entry> records = new ArrayList<>(tokens.size());
        withLock(() -> {
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
        if (!records.isEmpty()) {
            writeState(records);
        }
        withLock(() -> {
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
            wakeAll();
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
        withLock(() -> {
            TaskEntry e = state.holder(token);
            attempts[0] = e.attempts;
            inMemory[0] = e.isTransient();
        });
        if (!inMemory[0]) {
            writeState(List.of(stateRecord(TaskRecordDescriptor.EXTEND, token.taskId(), token.lease(), until,
                    attempts[0], null)));
        }
        withLock(() -> {
            state.extend(state.holder(token), until);
            wakeAll(); // a shorter lease may free the task sooner than waiters planned for
        });
        return until;
    }

    /** Under the lock: applies the clock, moving what must leave to the dead-letter queue. */
    void promote(long now) {
        deadLetter(state.promote(now));
    }

    /**
     * Applies the clock if something is due, so an ended lease is redelivered or dead-lettered on time even when
     * nobody is dequeuing (the worker that held it may be the one that died). Skips if the queue is busy: its
     * users promote as they go.
     */
    void tick() {
        if (!stateLog.isOpen() || !lock.tryLock()) {
            return;
        }
        try {
            long now = clock.steadyMillis();
            if (state.millisUntilNextChange(now) == 0) {
                promote(now);
                wakeAll();
            }
        } finally {
            lock.unlock();
        }
    }

    TaskCounts counts() {
        TaskCounts[] c = new TaskCounts[1];
        withLock(() -> {
            promote(clock.steadyMillis());
            c[0] = state.counts();
        });
        return c[0];
    }

    /**
     * Moves items marked leaving to the dead-letter queue, each as one transaction: the copy's enqueue there and
     * the DEAD record here commit together (the fsynced COMMIT record is the atomic point; recovery completes
     * whichever of the two writes a crash cut off), so a dead letter is neither duplicated nor lost, whatever the
     * queues' durability. Releases the lock (if held) around the writes.
     */
    void deadLetter(List<TaskEntry> leaving) {
        if (leaving.isEmpty()) {
            return;
        }
        int holds = lock.getHoldCount();
        for (int i = 0; i < holds; i++) {
            lock.unlock();
        }
        try {
            for (TaskEntry e : leaving) {
                moveToDeadLetters(e);
            }
        } finally {
            for (int i = 0; i < holds; i++) {
                lock.lock();
            }
        }
    }

    private void moveToDeadLetters(TaskEntry e) {
        try {
            if (deadLetters == null) {
                throw new MikyuException("'" + name + "' has no dead-letter queue");
            }
            byte[] body = e.isTransient() ? e.payload : item.apply(e.id).payload();
            Headers.Builder hb = Headers.builder();
            for (Headers.Header h : e.headers.asList()) {
                hb.add(h.name(), h.value());
            }
            hb.add(TaskQueue.DLQ_ORIGINAL_QUEUE, name).add(TaskQueue.DLQ_ORIGINAL_ID, Long.toString(e.id))
                    .add(TaskQueue.DLQ_ATTEMPTS, Integer.toString(e.attempts))
                    .add(TaskQueue.DLQ_REASON, e.lastReason == null ? "" : e.lastReason);
            byte[] payload = body == null ? new byte[0] : body;
            Task dead = new Task(payload, hb.build(), e.priority, 0, 0);
            if (e.isTransient()) {
                deadLetters.enqueueTransient(List.of(dead)); // stays as durable as it was: memory only
                withLock(() -> state.finish(e.id));
                deadLettered++;
                return;
            }
            // The DEAD settlement's memory update (settled) finishes the item, here or in recovery.
            transactions.accept(List.of(new TxOp.Enqueue(deadLetters.name(), dead),
                    new TxOp.DeadLetter(txTarget, e.id, e.lease, e.attempts, e.lastReason)));
        } catch (io.mikyu.engine.CommittedNotAppliedException committed) {
            // Decided: the store applies it later (housekeeping or the next open); moving it again would duplicate.
            LOG.warn("moving {} of '{}' to its dead-letter queue is committed but not yet applied", e.id, name,
                    committed);
        } catch (RuntimeException failure) {
            LOG.warn("moving {} of '{}' to its dead-letter queue failed; retrying later", e.id, name, failure);
            long now = clock.steadyMillis();
            withLock(() -> state.stay(e, now + DEAD_LETTER_RETRY_MILLIS, now));
        }
    }

    // ---------------------------------------------------------------------------------------- transactions

    /**
     * An ack or nack decided by a transaction ({@code delayMillis} -1: the backoff), or the DEAD record of a move to
     * the dead-letter queue ({@code dead}, with the attempts it had).
     */
    record Settlement(LeaseToken token, boolean nack, long delayMillis, String reason, boolean dead, int attempts) {

        Settlement(LeaseToken token, boolean nack, long delayMillis, String reason) {
            this(token, nack, delayMillis, reason, false, 0);
        }

        static Settlement deadLetter(TxOp.DeadLetter d) {
            return new Settlement(new LeaseToken(d.id(), d.lease()), false, 0, d.reason(), true, d.attempts());
        }
    }

    /** Fails unless every settlement's lease still holds. */
    void validate(List<Settlement> settlements) {
        withLock(() -> {
            for (Settlement s : settlements) {
                if (!s.dead()) { // a dead letter's task left its lease when the ledger decided to move it
                    state.holder(s.token());
                }
            }
        });
    }

    /** The state records of {@code settlements}, as one request stamped with {@code txId}. */
    AppendRequest settleRequest(List<Settlement> settlements, long txId) {
        long now = clock.steadyMillis();
        List<Entry> records = new ArrayList<>(settlements.size());
        withLock(() -> {
            for (Settlement s : settlements) {
                TaskEntry e = state.find(s.token().taskId());
                records.add(settleRecord(s, e == null ? 0 : e.attempts, now));
            }
        });
        byte[] batch = BatchEncoder.encode(records, now, engine.maxRecordBytes(), engine.maxBatchBytes(),
                BatchDescriptor.TYPE_TASK_STATE, txId);
        // Not fsynced here: the COMMIT record holds the decisions, and its APPLIED record waits until these records
        // are fsynced (a DEAD record lost with APPLIED kept would move the task a second time).
        return new AppendRequest(stateLog, batch, false);
    }

    /** The ACK or NACK record of one settlement; under the lock. */
    private Entry settleRecord(Settlement s, int attempts, long now) {
        if (s.dead()) {
            return stateRecord(TaskRecordDescriptor.DEAD, s.token().taskId(), s.token().lease(), now, s.attempts(),
                    s.reason());
        }
        if (!s.nack()) {
            return stateRecord(TaskRecordDescriptor.ACK, s.token().taskId(), s.token().lease(), 0, attempts, null);
        }
        long delay = s.delayMillis() < 0 ? config.backoff(attempts).toMillis() : s.delayMillis();
        return stateRecord(TaskRecordDescriptor.NACK, s.token().taskId(), s.token().lease(), now + delay, attempts,
                s.reason());
    }

    /**
     * After a transaction's settle records were written: its decisions stand whatever happened to the leases
     * since (the records already say so, and replay would apply them the same way).
     */
    void settled(List<Settlement> settlements) {
        List<TaskEntry> leaving = new ArrayList<>();
        withLock(() -> {
            long now = clock.steadyMillis();
            for (Settlement s : settlements) {
                TaskEntry e = state.find(s.token().taskId());
                if (s.dead()) {
                    if (e != null) {
                        state.finish(e.id);
                        deadLettered++;
                    }
                    continue;
                }
                if (e == null || e.state == TaskEntry.State.LEAVING) {
                    continue;
                }
                e.heldByTransaction = false;
                if (!s.nack()) {
                    state.finish(e.id);
                    acked++;
                } else if (e.attempts >= config.maxAttempts()) {
                    state.leave(e, s.reason() == null ? "rolled back " + e.attempts + " times" : s.reason());
                    leaving.add(e);
                } else {
                    long delay = s.delayMillis() < 0 ? config.backoff(e.attempts).toMillis() : s.delayMillis();
                    state.giveBack(e, now + delay, s.reason(), now);
                }
            }
            wakeAll();
        });
        deadLetter(leaving);
    }

    /** Keeps the settled tasks leased until the prepared transaction is decided. */
    void hold(List<Settlement> settlements) {
        withLock(() -> {
            for (Settlement s : settlements) {
                TaskEntry e = state.find(s.token().taskId());
                if (e != null && e.lease == s.token().lease() && e.state == TaskEntry.State.LEASED) {
                    state.extend(e, Long.MAX_VALUE);
                    e.heldByTransaction = true;
                }
            }
        });
    }

    /**
     * A rolled-back prepared transaction's tasks come back at once, as a nack without delay would bring them (the
     * attempt was counted when they were leased). Written as NACK records after the ROLLBACK record, so a restart
     * finds them ready too, rather than leased until their old lease ends; if that write fails they are still
     * given back in memory, and a restart gives them back when their leases end.
     */
    void release(List<Settlement> settlements) {
        List<Settlement> nacks = new ArrayList<>();
        List<Entry> records = new ArrayList<>();
        withLock(() -> {
            long now = clock.steadyMillis();
            for (Settlement s : settlements) {
                TaskEntry e = state.find(s.token().taskId());
                if (e != null && e.lease == s.token().lease() && e.state == TaskEntry.State.LEASED) {
                    Settlement nack = new Settlement(s.token(), true, 0, "its transaction was rolled back");
                    nacks.add(nack);
                    if (!e.isTransient()) {
                        records.add(settleRecord(nack, e.attempts, now));
                    }
                }
            }
        });
        try {
            writeState(records);
        } catch (RuntimeException failure) {
            LOG.warn("recording the release of {} tasks of '{}' after a rollback failed; they are given back now, and"
                    + " after a restart when their leases end", records.size(), name, failure);
        }
        settled(nacks);
    }

    long ackedCount() {
        return acked;
    }

    long deadLetteredCount() {
        return deadLettered;
    }

    /** Whether an enqueue now would wait for consumers (see {@link #awaitRoom}), as a thread that took none sees it. */
    boolean wouldPace() {
        return crowded && System.nanoTime() - lastTakeNanos <= CONSUMERS_IDLE_NANOS;
    }

    /** As {@link #write}, without waiting: {@code callback} hears the outcome on the writer thread. */
    void writeAsync(List<Entry> entries, byte type, Durability durability, AppendRequest.Callback callback) {
        writer.appendAsync(new AppendRequest(stateLog, encode(entries, type), durability == Durability.SYNC, null,
                callback));
    }

    /** Writes items of a work log (task records) or state records; returns the first offset. */
    long write(List<Entry> entries, byte type, Durability durability) {
        return writer.append(new AppendRequest(stateLog, encode(entries, type), durability == Durability.SYNC));
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

    private Entry stateRecord(byte op, long id, long lease, long time, int attempts, String reason) {
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
