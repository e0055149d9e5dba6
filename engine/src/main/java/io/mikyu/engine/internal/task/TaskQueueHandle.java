package io.mikyu.engine.internal.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
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
import io.mikyu.engine.internal.memory.TransientMemory;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.txn.TxTarget;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import io.mikyu.engine.spi.AsyncDequeue;
import io.mikyu.engine.spi.AsyncWrites;
import io.mikyu.engine.spi.TransientWrites;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import io.mikyu.engine.TimeSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The {@link TaskQueue} callers hold. The queue's log holds both its task records (id = offset) and the state
 * records of their leases; {@link LeaseLedger} does the leasing, this class enqueues and waits.
 */
public final class TaskQueueHandle extends LedgerHandle implements TaskQueue, AsyncWrites, AsyncDequeue,
        TransientWrites {

    private final SegmentedLog log;
    private final EngineConfig engine;
    private final TimeSource clock;
    /**
     * Written tasks waiting to join the queue, in log order: the writer thread adds each batch as it completes it
     * ({@link AppendRequest#onWritten}, in offset order), and whichever thread takes the lock next joins them all
     * ({@link #joinWritten}). Joining in log order is what lets ready tasks past the window stay in the log
     * uncounted by id (see {@link ColdBacklog}).
     */
    private final java.util.concurrent.ConcurrentLinkedQueue<Joining> joining =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** The end of the task records joined so far: all below it are in memory or finished. Under the lock. */
    private long joinedEnd;
    /** Takes and restores the checkpoint that spares a reopen the replay of the whole log. */
    private final LedgerCheckpoints checkpoints;
    /** Records read to open the queue (checkpointed tasks, the replayed log, cold tasks it brought back). */
    private long recordsReadToOpen;

    /** Tasks written from {@code first} on; {@code keepPayloads}: hold their payloads while the budget allows. */
    private record Joining(long first, List<Task> tasks, long enqueuedAt, boolean keepPayloads) {
    }

    private TaskQueueHandle(String name, TaskQueueConfig config, SegmentedLog log, GroupCommitWriter writer,
                            EngineConfig engine, TaskQueueHandle deadLetters,
                            java.util.function.Consumer<List<TxOp>> transactions) {
        this.log = log;
        this.engine = engine;
        this.clock = engine.timeSource();
        ledger = new LeaseLedger(name, config, log, writer, engine, deadLetters, this::readTask,
                clock::wallMillis, false, TxTarget.task(name), transactions, log::read);
        checkpoints = new LedgerCheckpoints(ledger, log, this::joinWritten, () -> joinedEnd);
    }

    /** Opens a task queue over its recovered log, replaying its records to rebuild the tasks' state. */
    public static TaskQueueHandle open(String name, TaskQueueConfig config, SegmentedLog log, GroupCommitWriter writer,
                                       EngineConfig engine, TaskQueueHandle deadLetters,
                                       java.util.function.Consumer<List<TxOp>> transactions) {
        TaskQueueHandle q = new TaskQueueHandle(name, config, log, writer, engine, deadLetters, transactions);
        LedgerCheckpoints.Restored restored =
                q.checkpoints.restore(q.clock.steadyMillis() - q.clock.wallMillis());
        long from = restored == null ? log.startOffset() : restored.replayFrom();
        long joinedBefore = restored == null ? -1 : restored.joinedEnd();
        long now = q.clock.steadyMillis();
        long[] replayed = new long[1];
        log.replay(from, (type, records) -> {
            replayed[0] += records.size();
            for (Record r : records) {
                if (type != BatchDescriptor.TYPE_TASK || r.offset() >= joinedBefore) { // else restored already
                    q.ledger.replay(type, r, now);
                }
            }
        });
        q.joinedEnd = log.endOffset();
        q.ledger.writtenEnd.set(log.endOffset()); // all of it is in the memory now
        q.recordsReadToOpen = (restored == null ? 0 : restored.recordsRead()) + replayed[0]
                + q.ledger.state.coldRecordsRead();
        return q;
    }

    public SegmentedLog storage() {
        return log;
    }

    @Override
    public String name() {
        return ledger.name;
    }

    @Override
    public TaskQueueConfig config() {
        return ledger.config;
    }

    /** Adds the ids of the large bodies this queue's unfinished tasks name (its dead-letter queue is its own). */
    public void collectBodies(java.util.Collection<String> into) {
        ledger.state.bodies.collectInto(into);
    }

    @Override
    public TaskQueue deadLetters() {
        return ledger.deadLetters.queue();
    }

    @Override
    public long enqueue(Task task, Durability durability) {
        return enqueueBatch(List.of(task), durability);
    }

    @Override
    public long enqueueBatch(List<Task> tasks, Durability durability) {
        long now = clock.wallMillis();
        List<Entry> entries = taskEntries(tasks, now);
        ledger.pacing.awaitRoom(tasks.size());
        long first = ledger.write(entries, BatchDescriptor.TYPE_TASK, durability,
                base -> joining.add(new Joining(base, tasks, now, true)));
        joinWritten();
        return first;
    }

    @Override
    public boolean tryEnqueueAsync(List<Task> tasks, Durability durability, Executor continuation,
                                   AsyncWrites.Completion done) {
        if (tasks.isEmpty()) {
            return false;
        }
        if (ledger.pacing.wouldPace()) {
            if (!(continuation instanceof ScheduledExecutorService timer)) {
                return false;
            }
            // Paced without a thread: the write starts from the timer once the consumers made room.
            done.paced(true);
            ledger.pacing.awaitRoomAsync(tasks.size(), timer, () -> {
                done.paced(false);
                try {
                    enqueueAsync(tasks, durability, continuation, done);
                } catch (RuntimeException e) {
                    done.failed(e);
                }
            });
            return true;
        }
        enqueueAsync(tasks, durability, continuation, done);
        return true;
    }

    private void enqueueAsync(List<Task> tasks, Durability durability, Executor continuation,
                              AsyncWrites.Completion done) {
        long now = clock.wallMillis();
        List<Entry> entries = taskEntries(tasks, now);
        ledger.writeAsync(entries, BatchDescriptor.TYPE_TASK, durability,
                base -> joining.add(new Joining(base, tasks, now, true)), new AppendRequest.Callback() {
            @Override
            public void completed(long first) {
                // The tasks join the queue on the caller's executor: the writer thread never waits for its lock.
                AppendRequest.handOn(continuation, () -> {
                    try {
                        joinWritten();
                    } catch (RuntimeException e) {
                        done.failed(e);
                        return;
                    }
                    done.completed(first);
                });
            }

            @Override
            public void failed(RuntimeException cause) {
                AppendRequest.handOn(continuation, () -> done.failed(cause));
            }
        });
    }

    /** Whether every task of {@code tasks} is due at {@code now} (none delayed). */
    private static boolean allReady(List<Task> tasks, long now) {
        for (Task t : tasks) {
            if (t.deliverAt() > now) {
                return false;
            }
        }
        return true;
    }

    /**
     * Written tasks join the queue, in log order: this caller's and any other batch written before it that has not
     * joined yet (its own caller will find it joined).
     */
    private void joinWritten() {
        ledger.withLock(() -> {
            long now = clock.steadyMillis();
            int count = 0;
            boolean allReady = true;
            for (Joining j = joining.poll(); j != null; j = joining.poll()) {
                long id = j.first();
                for (Task t : j.tasks()) {
                    TaskEntry e = ledger.state.enqueued(id++, new TaskRecordDescriptor.Meta(t.priority(),
                            t.deliverAt(), t.expiresAt()), j.enqueuedAt(), t.headers(), now);
                    if (e != null && j.keepPayloads()) {
                        ledger.state.keepPayload(e, t.payload());
                    }
                }
                count += j.tasks().size();
                allReady &= allReady(j.tasks(), now);
                joinedEnd = Math.max(joinedEnd, j.first() + j.tasks().size());
            }
            if (count > 0) {
                ledger.pacing.noteReady();
                ledger.waiting.signalReady(count, allReady);
            }
        });
    }

    /** Counts this queue's transient tasks against the store's memory limits (from open on). */
    public void countTransientMemory(TransientMemory.Account account) {
        ledger.withLock(() -> ledger.state.transientMemory = account);
    }

    /** The queue is deleted or closed: what its transient tasks took is given back. */
    public void releaseTransientMemory() {
        TransientMemory.Account account = ledger.state.transientMemory; // set once, before the queue was published
        if (account != null) {
            account.close();
        }
    }

    @Override
    public long enqueueTransient(List<Task> tasks) {
        return enqueueTransient(tasks, false, true);
    }

    @Override
    public long enqueueTransientUnlessFull(List<Task> tasks) {
        return enqueueTransient(tasks, false, false);
    }

    /** Dead letters already counted in their queue ({@code moved}) are charged here whatever the limits. */
    long enqueueTransient(List<Task> tasks, boolean moved) {
        return enqueueTransient(tasks, moved, true);
    }

    private long enqueueTransient(List<Task> tasks, boolean moved, boolean mayWait) {
        TransientMemory.Account account = ledger.state.transientMemory;
        long size = account == null ? 0 : TransientMemory.footprint(tasks);
        ledger.pacing.awaitRoom(tasks.size());
        if (account != null && moved) {
            account.force(size, tasks.size());
        } else if (account != null) {
            switch (account.admit(size, tasks.size(), mayWait)) {
                case SPILL -> {
                    return enqueueBatch(tasks, Durability.ASYNC);
                }
                case FULL -> {
                    return MEMORY_FULL;
                }
                case HELD -> { }
            }
        }
        return holdTransient(tasks, account, size);
    }

    @Override
    public long tryEnqueueTransient(List<Task> tasks) {
        TransientMemory.Account account = ledger.state.transientMemory;
        long size = account == null ? 0 : TransientMemory.footprint(tasks);
        if (ledger.pacing.wouldPace() || (account != null && !account.tryAdmit(size, tasks.size()))) {
            return MEMORY_FULL;
        }
        return holdTransient(tasks, account, size);
    }

    /** Transient tasks whose memory is charged ({@code size} to {@code account}) join the queue. */
    private long holdTransient(List<Task> tasks, TransientMemory.Account account, long size) {
        long enqueuedAt = clock.wallMillis();
        long now = clock.steadyMillis();
        long[] first = {-1};
        long[] placed = {0, 0}; // bytes and tasks now in the state, which gives them back as they leave
        try {
            ledger.withLock(() -> {
                ledger.checkOpen();
                for (Task t : tasks) {
                    placed[0] += account == null ? 0 : TransientMemory.footprint(t.headers(), t.payload());
                    placed[1]++;
                    TaskEntry e = ledger.state.enqueuedTransient(new TaskRecordDescriptor.Meta(t.priority(),
                            t.deliverAt(), t.expiresAt()), enqueuedAt, t.headers(), t.payload(), now);
                    if (first[0] < 0 && e != null) {
                        first[0] = e.id;
                    }
                }
                ledger.pacing.noteReady();
                ledger.waiting.signalReady(tasks.size(), allReady(tasks, now));
            });
        } catch (RuntimeException e) {
            if (account != null) {
                account.release(size - placed[0], tasks.size() - (int) placed[1]);
            }
            throw e;
        }
        return first[0];
    }

    @Override
    public List<LeasedTask> dequeue(int max, Duration lease, Duration wait, TaskFilter filter)
            throws InterruptedException {
        LeaseLedger.checkTake(max, lease);
        long deadline = System.nanoTime() + (wait == null ? 0 : wait.toNanos());
        boolean unfiltered = io.mikyu.engine.GroupMember.unwrap(filter) == null;
        List<LeaseLedger.Taken> takes = new ArrayList<>(1);
        int got = 0;
        ReadyWindow.TopUp topUp = null;
        ledger.lock.lockInterruptibly();
        try {
            while (true) {
                ledger.checkOpen();
                long now = clock.steadyMillis();
                ledger.promote(now);
                // Planned before the take, so the window is filled as far as it was before this take.
                ReadyWindow.TopUp planned = ledger.state.planTopUp();
                LeaseLedger.Taken taken = ledger.take(max - got, filter, now, now + lease.toMillis());
                if (!taken.entries().isEmpty()) {
                    takes.add(taken);
                    got += taken.entries().size();
                }
                boolean waitsOnCold = unfiltered && ledger.state.coldFirst();
                if (got < max && waitsOnCold && planned == null) {
                    planned = ledger.state.planTopUp(); // null: another take is reading them
                }
                if (planned != null && (got == 0 || got < max && waitsOnCold)) {
                    readTopUpUnlocked(planned); // the next tasks in delivery order are in the log only
                    continue;
                }
                if (got > 0) {
                    topUp = planned; // read after this take is on its way
                    break;
                }
                long remaining = deadline - System.nanoTime();
                if (waitsOnCold) {
                    // Another take is reading the next tasks back: wait for it even if this one would not wait.
                    ledger.waiting.awaitChange(Math.max(remaining, TOP_UP_WAIT_NANOS), false);
                    continue;
                }
                if (remaining <= 0) {
                    return List.of();
                }
                long untilChange = TimeUnit.MILLISECONDS.toNanos(ledger.state.millisUntilNextChange(now));
                ledger.waiting.awaitChange(Math.min(remaining, Math.max(untilChange, 1_000_000L)), filter != null);
            }
        } finally {
            ledger.lock.unlock();
        }
        LeaseLedger.Taken taken = LeaseLedger.Taken.of(takes);
        try {
            ledger.record(taken);
        } finally {
            if (topUp != null) {
                topUp(topUp);
            }
        }
        return withPayloads(taken.handedOut());
    }

    /** How long a take waits at most, each time, for a top-up another take is reading. */
    private static final long TOP_UP_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Reads a planned top-up of the window without the queue's lock, then holds what it read and wakes the
     * consumers waiting for it (see {@link ReadyWindow#planTopUp}).
     */
    private void topUp(ReadyWindow.TopUp topUp) {
        ledger.lock.lock();
        try {
            readTopUpUnlocked(topUp);
        } finally {
            ledger.lock.unlock();
        }
    }

    /** As {@link #topUp}, called holding the lock: it is let go for the read and held again afterwards. */
    private void readTopUpUnlocked(ReadyWindow.TopUp topUp) {
        ledger.lock.unlock();
        try {
            ledger.state.readTopUp(topUp);
        } finally {
            ledger.lock.lock();
            ledger.state.finishTopUp(topUp, clock.steadyMillis());
            ledger.waiting.wakeAll();
        }
    }

    @Override
    public Start tryDequeueAsync(int max, Duration lease, TaskFilter filter, Executor continuation,
                                 AsyncDequeue.Completion done, Runnable whenReady) {
        LeaseLedger.checkTake(max, lease);
        long now = clock.steadyMillis();
        LeaseLedger.Taken taken;
        ReadyWindow.TopUp topUp;
        ledger.lock.lock();
        try {
            ledger.checkOpen();
            if (ledger.state.millisUntilNextChange(now) == 0) {
                // Due work first (it may dead-letter, which writes and waits): that is the blocking call's job.
                return Start.DECLINED;
            }
            topUp = ledger.state.planTopUp();
            taken = ledger.take(max, filter, now, now + lease.toMillis());
            if (taken.entries().isEmpty()) {
                if (topUp != null) {
                    ledger.state.finishTopUp(topUp, now); // not read: the blocking call reads it
                }
                if (io.mikyu.engine.GroupMember.unwrap(filter) == null && ledger.state.coldFirst()) {
                    return Start.DECLINED; // the next tasks are in the log only: the blocking call reads them back
                }
                ledger.waiting.listen(whenReady);
                return Start.WAITING;
            }
        } finally {
            ledger.lock.unlock();
        }
        try {
            recordAsyncAndHandOut(taken, continuation, done);
        } finally {
            if (topUp != null) {
                topUp(topUp);
            }
        }
        return Start.TAKEN;
    }

    private void recordAsyncAndHandOut(LeaseLedger.Taken taken, Executor continuation, AsyncDequeue.Completion done) {
        ledger.recordAsync(taken, continuation, () -> {
            List<LeasedTask> tasks;
            try {
                tasks = withPayloads(taken.handedOut());
            } catch (RuntimeException e) {
                done.failed(e); // the leases are written: they run out, as for a blocking dequeue failing here
                return;
            }
            done.completed(tasks);
        }, done::failed);
    }

    @Override
    public void cancelWhenReady(Runnable whenReady) {
        ledger.waiting.unlisten(whenReady);
    }

    /**
     * Fills in the payloads that were not kept in memory. Tasks leased together are usually neighbours in the
     * log, so each run of consecutive ids is read with one call: reading them one by one would decode their
     * whole batch once per task.
     */
    private List<LeasedTask> withPayloads(List<LeasedTask> handedOut) {
        List<LeasedTask> out = new ArrayList<>(handedOut.size());
        List<Record> run = List.of();
        int runIndex = 0;
        for (LeasedTask t : handedOut) {
            if (t.payload() != null) {
                out.add(t);
                continue;
            }
            if (runIndex >= run.size() || run.get(runIndex).offset() != t.id()) {
                run = log.read(t.id(), consecutiveFrom(handedOut, out.size()), Long.MAX_VALUE);
                runIndex = 0;
            }
            Record r = runIndex < run.size() && run.get(runIndex).offset() == t.id() ? run.get(runIndex++)
                    : readTask(t.id());
            out.add(new LeasedTask(t.id(), t.token(), t.attempt(), t.priority(), t.enqueuedAt(), t.expiresAt(),
                    t.leaseExpiresAt(), t.headers(), r.payload(), t.previousLeaseRanOut()));
        }
        return out;
    }

    /** How many tasks from {@code start} on have consecutive ids and no payload in memory. */
    private static int consecutiveFrom(List<LeasedTask> tasks, int start) {
        int n = 1;
        while (start + n < tasks.size() && tasks.get(start + n).payload() == null
                && tasks.get(start + n).id() == tasks.get(start).id() + n) {
            n++;
        }
        return n;
    }

    @Override
    public List<LeasedTask> browse(int max, TaskFilter filter) {
        List<TaskEntry> entries = new ArrayList<>();
        ledger.withLock(() -> {
            long now = clock.steadyMillis();
            ledger.promote(now);
            entries.addAll(ledger.state.browse(max, filter, now));
        });
        List<LeasedTask> out = new ArrayList<>(entries.size());
        for (TaskEntry e : entries) {
            out.add(new LeasedTask(e.id, null, e.attempts, e.priority, e.enqueuedAt, e.expiresAt, 0, e.headers(),
                    e.payload != null ? e.payload : readTask(e.id).payload()));
        }
        return out;
    }

    @Override
    public long purge() {
        TaskQueueState.Purged[] purged = new TaskQueueState.Purged[1];
        ledger.withLock(() -> purged[0] = ledger.state.purge());
        long count = purged[0].count();
        List<Entry> records = new ArrayList<>();
        for (Long id : purged[0].ids()) {
            if (id < TaskEntry.TRANSIENT_BASE) {
                records.add(purgeRecord(id));
            }
        }
        ledger.writeState(records);
        ColdBacklog cold = purged[0].cold();
        if (cold != null) {
            // The cold tasks' records, a chunk at a time: a backlog in the log only is not all read into memory.
            List<Entry> chunk = new ArrayList<>();
            for (int p = ColdBacklog.LEVELS - 1; p >= 0; p--) {
                cold.take(p, Integer.MAX_VALUE, r -> {
                    chunk.add(purgeRecord(r.offset()));
                    if (chunk.size() >= PURGE_CHUNK) {
                        ledger.writeState(chunk);
                        chunk.clear();
                    }
                    return true;
                });
            }
            ledger.writeState(chunk);
        }
        return count;
    }

    /** Records of a purge of cold tasks written at once. */
    private static final int PURGE_CHUNK = 8192;

    private static Entry purgeRecord(long id) {
        return new Entry(null, null, TaskRecordDescriptor.state(TaskRecordDescriptor.ACK, id, 0, 0, 0, "purged"),
                Entry.NO_TIMESTAMP);
    }

    @Override
    public TaskCounts counts() {
        return ledger.counts();
    }

    @Override
    public QueueStats stats() {
        TaskCounts c = counts();
        return new QueueStats(name(), QueueKind.TASK, log.startOffset(), log.endOffset(), c.depth(),
                log.bytesOnDisk(), log.segmentCount(), log.appendedRecords(), log.appendedBytes(), log.readRecords(),
                log.cacheHits(), log.cacheMisses());
    }

    public long deadLetteredCount() {
        return ledger.deadLetters.movedCount();
    }

    /** Housekeeping: promotes due tasks, drops idle filters, and deletes log segments holding no live task. */
    public void housekeeping() {
        long[] lowest = new long[1];
        ledger.withLock(() -> {
            long now = clock.steadyMillis();
            ledger.promote(now);
            ledger.state.dropIdleFilters(now);
            lowest[0] = ledger.state.lowestLiveId();
            if (ledger.state.hasReady()) {
                ledger.waiting.wakeAll();
            }
        });
        try {
            // Not below the tasks the checkpoint on disk names: the next open reads their records.
            Retention.dropSegmentsBelow(log, Math.min(Math.min(lowest[0], log.endOffset()), checkpoints.keepFrom()));
            checkpoints.housekeeping();
        } catch (IOException e) {
            throw new UncheckedIOException("cleaning " + log.describe(), e);
        }
    }

    /** Clean close, on the writer thread before the log closes: a checkpoint, so the next open reads little. */
    public void checkpointOnClose() {
        checkpoints.close();
    }

    /** Records read to open this queue: O(window + the log's tail) with a checkpoint, the whole log without. */
    public long recordsReadToOpen() {
        return recordsReadToOpen;
    }

    // ---------------------------------------------------------------------------------------- transactions

    @Override
    public SegmentedLog txLog() {
        return log;
    }

    @Override
    public void validate(List<TxOp> ops) {
        ledger.checkOpen();
        List<Entry> entries = enqueueEntries(ops, 0);
        if (!entries.isEmpty()) {
            BatchEncoder.encode(entries, 0, engine.maxRecordBytes(), engine.maxBatchBytes()); // size limits
        }
        ledger.transactions.validate(settlements(ops));
    }

    @Override
    public List<TxWrite> prepareWrites(List<TxOp> ops, long txId) {
        List<TxWrite> out = new ArrayList<>(2);
        long now = clock.wallMillis();
        List<Task> tasks = new ArrayList<>();
        for (TxOp op : ops) {
            if (op instanceof TxOp.Enqueue e) {
                tasks.add(e.task());
            }
        }
        if (!tasks.isEmpty()) {
            byte[] batch = BatchEncoder.encode(enqueueEntries(ops, now), now, engine.maxRecordBytes(),
                    engine.maxBatchBytes(), BatchDescriptor.TYPE_TASK, txId);
            // Not fsynced here: the transaction's COMMIT record holds the tasks (see TransactionManager), and a
            // task is leased out only once its record is fsynced (LeaseLedger.transactionWritten).
            AppendRequest request = new AppendRequest(log, batch, false).onWritten(ledger.noting(base -> {
                ledger.transactionWritten(base + tasks.size());
                joining.add(new Joining(base, tasks, now, false));
            }, tasks.size()));
            out.add(new TxWrite(request, this::joinWritten));
        }
        List<Settlement> settlements = settlements(ops);
        if (!settlements.isEmpty()) {
            // Applied only once written: a checkpoint meanwhile replays from below it (never applied if the write
            // fails, which keeps later checkpoints replaying from here until the store is reopened).
            long[] decision = new long[1];
            ledger.withLock(() -> decision[0] = ledger.unapplied.decided(log.endOffset()));
            AppendRequest settle = ledger.transactions.settleRequest(settlements, txId)
                    .onWritten(ledger.noting(null, settlements.size()));
            out.add(new TxWrite(settle, () -> {
                try {
                    ledger.transactions.settled(settlements);
                } finally {
                    ledger.withLock(() -> ledger.unapplied.applied(decision[0]));
                }
            }));
        }
        return out;
    }

    private static List<Entry> enqueueEntries(List<TxOp> ops, long now) {
        List<Task> tasks = new ArrayList<>();
        for (TxOp op : ops) {
            if (op instanceof TxOp.Enqueue e) {
                tasks.add(e.task());
            }
        }
        return taskEntries(tasks, now);
    }

    /** The task records of {@code tasks}: metadata in the key, enqueued at {@code now}. */
    private static List<Entry> taskEntries(List<Task> tasks, long now) {
        List<Entry> entries = new ArrayList<>(tasks.size());
        for (Task t : tasks) {
            entries.add(new Entry(TaskRecordDescriptor.meta(t.priority(), t.deliverAt(), t.expiresAt()), t.headers(),
                    t.payload(), now));
        }
        return entries;
    }

    /** The task record of {@code id}: its offset in the log. */
    private Record readTask(long id) {
        List<Record> r = log.read(id, 1, Long.MAX_VALUE);
        if (r.isEmpty() || r.get(0).offset() != id) {
            throw new MikyuException("task " + id + " of task queue '" + name() + "' has no record in the log");
        }
        return r.get(0);
    }

    @Override
    public String toString() {
        return "TaskQueue[" + name() + "]";
    }

    @Override
    List<Settlement> settlements(List<TxOp> ops) {
        return settlementsOf(ops);
    }
}
