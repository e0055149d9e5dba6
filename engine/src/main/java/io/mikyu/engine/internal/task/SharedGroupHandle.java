package io.mikyu.engine.internal.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordScheduling;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TimeSource;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.TaskRecordDescriptor;
import io.mikyu.engine.internal.log.Retention;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.txn.TxTarget;
import io.mikyu.engine.internal.write.GroupCommitWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A shared consumer group: the records of a log queue from the group's committed offset on are admitted, up to
 * {@code maxInFlight} at a time, into a {@link LeaseLedger} whose state records live in the group's own small
 * log ({@code log/<queue>/shared-groups/<group>/}). The committed offset (lowest unfinished record) is written to
 * the queue's offsets file by housekeeping and on close; state records carry the window end in their timestamp, so
 * state-log segments that only speak of finished records can be deleted.
 */
public final class SharedGroupHandle extends LedgerHandle implements SharedGroup {

    /** Records without scheduling headers get the default priority and no delivery time or expiry. */
    private static final TaskRecordDescriptor.Meta RECORD_META =
            new TaskRecordDescriptor.Meta(Task.DEFAULT_PRIORITY, 0, 0);
    /** Longest wait for a redelivery made ready by another member before looking again. */
    private static final long MAX_WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final String group;
    private final SegmentedLog source;
    private final OffsetStore offsets;
    private final SharedGroupConfig config;
    /** Records that do not match are finished on admission; see {@link io.mikyu.engine.LogQueue#sharedGroup}. */
    private volatile TaskFilter admissionFilter;
    /** The next record to admit; only grows. Written under the ledger's lock. */
    private volatile long windowEnd;
    private long committed;
    private final TimeSource clock;

    private SharedGroupHandle(String group, SegmentedLog source, OffsetStore offsets, SharedGroupConfig config,
                              SegmentedLog stateLog, GroupCommitWriter writer, EngineConfig engine,
                              TaskQueueHandle deadLetters, java.util.function.Consumer<List<TxOp>> transactions) {
        this.group = group;
        this.clock = engine.timeSource();
        this.source = source;
        this.offsets = offsets;
        this.config = config;
        ledger = new LeaseLedger(source.name() + ":" + group, config.redelivery(), stateLog, writer, engine,
                deadLetters, this::readRecord, () -> windowEnd, true, TxTarget.sharedGroup(source.name(), group),
                transactions, null);
    }

    /** Opens the group, replaying its state log from its committed offset. */
    public static SharedGroupHandle open(String group, SegmentedLog source, OffsetStore offsets,
                                         SharedGroupConfig config, SegmentedLog stateLog, GroupCommitWriter writer,
                                         EngineConfig engine, TaskQueueHandle deadLetters,
                                         java.util.function.Consumer<List<TxOp>> transactions) {
        SharedGroupHandle g = new SharedGroupHandle(group, source, offsets, config, stateLog, writer, engine,
                deadLetters, transactions);
        Long c = offsets.committed(group);
        long start = Math.max(source.startOffset(), c == null || c < 0 ? 0 : c);
        g.committed = start;
        g.windowEnd = start;
        long now = g.clock.steadyMillis();
        stateLog.replay(stateLog.startOffset(), (type, records) -> {
            if (type != BatchDescriptor.TYPE_TASK_STATE) {
                return;
            }
            for (Record r : records) {
                TaskRecordDescriptor.State s = TaskRecordDescriptor.State.decode(r.payload());
                if (s.taskId() >= start) {
                    g.admitThrough(s.taskId(), now);
                    g.ledger.state.replay(s);
                }
            }
        });
        return g;
    }

    public SegmentedLog stateLog() {
        return ledger.stateLog;
    }

    @Override
    public String name() {
        return group;
    }

    @Override
    public String queue() {
        return source.name();
    }

    @Override
    public SharedGroupConfig config() {
        return config;
    }

    @Override
    public List<Delivery> fetch(int max, Duration lease, Duration wait) throws InterruptedException {
        LeaseLedger.checkTake(max, lease);
        long deadline = System.nanoTime() + (wait == null ? 0 : wait.toNanos());
        LeaseLedger.Taken taken;
        while (true) {
            long untilChange;
            long awaitedOffset;
            ledger.lock.lockInterruptibly();
            try {
                ledger.checkOpen();
                long now = clock.steadyMillis();
                ledger.promote(now);
                boolean room = admit(now);
                taken = ledger.take(max, null, now, now + lease.toMillis());
                if (!taken.entries().isEmpty()) {
                    break;
                }
                untilChange = TimeUnit.MILLISECONDS.toNanos(ledger.state.millisUntilNextChange(now));
                // The next record to admit is at windowEnd; with the window full no append can bring work.
                awaitedOffset = room ? windowEnd : Long.MAX_VALUE;
            } finally {
                ledger.lock.unlock();
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return List.of();
            }
            // Woken by an append to the queue; redeliveries, and room an ack made, are looked for at least every
            // 100 ms.
            source.awaitBeyond(awaitedOffset, Math.min(remaining, Math.min(Math.max(untilChange, 1_000_000L),
                    MAX_WAIT_SLICE_NANOS)));
        }
        ledger.record(taken);
        List<Delivery> out = new ArrayList<>(taken.handedOut().size());
        for (LeasedTask t : taken.handedOut()) {
            out.add(new Delivery(readRecord(t.id()), t.token(), t.attempt(), t.leaseExpiresAt(),
                    t.previousLeaseRanOut()));
        }
        return out;
    }

    /** Sets the admission filter and finishes the records already waiting in the window that do not match it. */
    public void admissionFilter(TaskFilter filter) {
        ledger.withLock(() -> {
            admissionFilter = filter;
            ledger.state.finishReadyNotMatching(filter);
        });
    }

    /** Under the lock: one record enters the window, unless the admission filter turns it away. */
    private void admitOne(Record r, long now) {
        TaskRecordDescriptor.Meta meta = metaOf(r);
        TaskFilter filter = admissionFilter;
        if (filter == null
                || FilterIndex.test(filter, RecordScheduling.view(r, meta.priority(), meta.expiresAt()))) {
            ledger.state.enqueued(r.offset(), meta, r.timestamp(), r.headers(), now);
        }
    }

    /** Under the lock: admits records while the window has room; whether it has room left. */
    private boolean admit(long now) {
        // The window spans from the lowest unfinished record to the furthest admitted: members never run more
        // than maxInFlight records ahead of a stuck one.
        long low = Math.min(ledger.state.lowestLiveId(), windowEnd);
        long room = config.maxInFlight() - (windowEnd - low);
        long end = source.endOffset();
        while (room > 0 && windowEnd < end) {
            List<Record> records = source.read(windowEnd, (int) Math.min(room, 1024), 8L << 20);
            if (records.isEmpty()) {
                windowEnd = Math.max(windowEnd, Math.min(end, source.startOffset()));
                break;
            }
            for (Record r : records) {
                admitOne(r, now);
            }
            windowEnd = records.get(records.size() - 1).offset() + 1;
            room -= records.size();
        }
        return room > 0;
    }

    /** The record's scheduling headers ({@link SharedGroup#PRIORITY_HEADER} ...), or the defaults. */
    private static TaskRecordDescriptor.Meta metaOf(Record r) {
        if (r.headers().isEmpty()) {
            return RECORD_META;
        }
        int priority = RecordScheduling.priority(r);
        long deliverAt = RecordScheduling.deliverAt(r);
        long expiresAt = RecordScheduling.expiresAt(r);
        if (priority == Task.DEFAULT_PRIORITY && deliverAt == 0 && expiresAt == 0) {
            return RECORD_META;
        }
        return new TaskRecordDescriptor.Meta(priority, deliverAt, expiresAt);
    }

    /** While replaying: admits every record up to {@code offset}, whatever the window. */
    private void admitThrough(long offset, long now) {
        while (windowEnd <= offset) {
            List<Record> records = source.read(windowEnd, (int) Math.min(1024, offset - windowEnd + 1), 8L << 20);
            if (records.isEmpty()) {
                return;
            }
            for (Record r : records) {
                if (r.offset() > offset) {
                    return; // a compaction gap: the next record lies beyond; leave it for admit()
                }
                ledger.state.enqueued(r.offset(), metaOf(r), r.timestamp(), r.headers(), now);
                windowEnd = r.offset() + 1;
            }
        }
    }

    @Override
    public long committedOffset() {
        long[] c = new long[1];
        ledger.withLock(() -> c[0] = Math.min(ledger.state.lowestLiveId(), windowEnd));
        return c[0];
    }

    @Override
    public TaskCounts counts() {
        return ledger.counts();
    }

    @Override
    public long lag() {
        return Math.max(0, source.endOffset() - committedOffset());
    }

    @Override
    public TaskQueue deadLetters() {
        return ledger.deadLetters.queue();
    }

    /**
     * Makes the committed offset durable in the queue's offsets file and deletes state-log segments that only
     * describe records below it. Called by housekeeping and before close.
     */
    public void checkpoint() {
        ledger.withLock(() -> ledger.promote(clock.steadyMillis()));
        long c = committedOffset();
        if (c > committed) {
            offsets.commit(group, c);
            committed = c;
            try {
                Retention.dropSegmentsStampedAtOrBelow(ledger.stateLog, c);
            } catch (IOException e) {
                throw new UncheckedIOException("cleaning the state log of shared group '" + group + "'", e);
            }
        }
    }

    // ---------------------------------------------------------------------------------------- transactions

    @Override
    public SegmentedLog txLog() {
        return ledger.stateLog;
    }

    @Override
    public void validate(List<TxOp> ops) {
        ledger.checkOpen();
        ledger.transactions.validate(settlements(ops));
    }

    @Override
    public List<TxWrite> prepareWrites(List<TxOp> ops, long txId) {
        List<Settlement> s = settlements(ops);
        return s.isEmpty() ? List.of()
                : List.of(new TxWrite(ledger.transactions.settleRequest(s, txId),
                        () -> ledger.transactions.settled(s)));
    }

    private Record readRecord(long offset) {
        List<Record> r = source.read(offset, 1, Long.MAX_VALUE);
        if (r.isEmpty() || r.get(0).offset() != offset) {
            throw new MikyuException("record " + offset + " of log queue '" + source.name()
                    + "' is gone (retention or compaction) while shared group '" + group + "' still held it");
        }
        return r.get(0);
    }

    @Override
    public String toString() {
        return "SharedGroup[" + source.name() + "/" + group + " @ " + committedOffset() + "]";
    }

    @Override
    List<Settlement> settlements(List<TxOp> ops) {
        return settlementsOf(ops);
    }
}
