package io.mikyu.engine.internal.store;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Durability;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.engine.EncodedBatchHandler;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.OffsetOutOfRangeException;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordHandler;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.internal.format.BatchEncoder;
import io.mikyu.engine.internal.format.BatchValidator;
import io.mikyu.engine.internal.format.ClientTimestamps;
import io.mikyu.engine.internal.format.OffsetsDescriptor;
import io.mikyu.engine.internal.format.RecordSink;
import io.mikyu.engine.internal.log.Compactor;
import io.mikyu.engine.internal.log.Retention;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.task.OffsetStore;
import io.mikyu.engine.internal.task.SharedGroupHandle;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.txn.TxParticipant;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import io.mikyu.engine.internal.write.StagingBuffer;
import io.mikyu.engine.spi.AsyncWrites;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link LogQueue} callers hold: encodes appends on the caller's thread and hands them to the writer, and
 * routes reads, groups and maintenance to the queue's storage.
 */
final class LogQueueHandle implements LogQueue, TxParticipant, AsyncWrites {

    private final SegmentedLog log;
    private final OffsetStore offsets;
    private final GroupCommitWriter writer;
    private final EngineConfig limits;
    private final QueueMeters meters;
    private final ConcurrentHashMap<String, GroupHandle> groups = new ConcurrentHashMap<>();
    private final SharedGroups shared;
    private final Compactor compactor;
    private final LogBodies bodies = new LogBodies();

    LogQueueHandle(SegmentedLog log, OffsetStore offsets, GroupCommitWriter writer, EngineConfig limits,
                   QueueMeters meters, SharedGroups shared) {
        this.log = log;
        this.offsets = offsets;
        this.writer = writer;
        this.limits = limits;
        this.meters = meters;
        this.shared = shared;
        this.compactor = new Compactor(log);
        meters.read(QueueMeterFamily.COMPACTION_PASSES, compactor, Compactor::passes);
        meters.read(QueueMeterFamily.COMPACTION_KEYS, compactor, Compactor::mappedKeys);
        for (String g : offsets.groups()) {
            if (!shared.contains(g)) {
                registerGroup(g);
            }
        }
    }

    SharedGroups shared() {
        return shared;
    }

    SegmentedLog storage() {
        return log;
    }

    /** Adds the ids of the large bodies this log's retained records name (see {@link LogBodies}). */
    void collectBodies(java.util.Collection<String> into) {
        bodies.collectInto(log, into);
    }

    /** The store has no large body: no record below {@code end} names one. */
    void noBodiesBelow(long end) {
        bodies.noneBelow(end);
    }

    OffsetStore offsets() {
        return offsets;
    }

    QueueMeters meters() {
        return meters;
    }

    @Override
    public String name() {
        return log.name();
    }

    @Override
    public LogQueueConfig config() {
        return log.config();
    }

    @Override
    public long append(Entry entry, Durability durability) {
        return appendBatch(List.of(entry), durability);
    }

    @Override
    public long appendBatch(List<Entry> entries, Durability durability) {
        long start = System.nanoTime();
        byte[] batch = BatchEncoder.encode(entries, limits.timeSource().wallMillis(), limits.maxRecordBytes(),
                limits.maxBatchBytes());
        long offset = writer.append(new AppendRequest(log, batch, durability == Durability.SYNC,
                StagingBuffer.stage(batch)));
        meters.appendLatency(System.nanoTime() - start);
        return offset;
    }

    @Override
    public long appendEncoded(EncodedBatch encoded, Durability durability) {
        long start = System.nanoTime();
        byte[] batch = encoded.bytes();
        BatchValidator.validate(batch, limits.maxRecordBytes(), limits.maxBatchBytes());
        ByteBuffer direct = boundTimestamps(batch, encoded.directCopy());
        long offset = writer.append(new AppendRequest(log, batch, durability == Durability.SYNC,
                direct != null ? direct : StagingBuffer.stage(batch)));
        meters.appendLatency(System.nanoTime() - start);
        return offset;
    }

    /**
     * A batch encoded elsewhere carries its client's clock: timestamps too far from the store's are restamped
     * ({@link ClientTimestamps}). Returns the direct copy to write, still the same bytes, or null to stage them anew.
     */
    private ByteBuffer boundTimestamps(byte[] batch, ByteBuffer direct) {
        if (ClientTimestamps.bound(batch, limits.timeSource().wallMillis()) == 0 || direct == null) {
            return direct;
        }
        if (direct.isReadOnly()) {
            return null;
        }
        direct.put(0, batch);
        return direct;
    }

    @Override
    public boolean tryAppendEncodedAsync(EncodedBatch encoded, Durability durability, Executor continuation,
                                         AsyncWrites.Completion done) {
        long start = System.nanoTime();
        byte[] batch = encoded.bytes();
        BatchValidator.validate(batch, limits.maxRecordBytes(), limits.maxBatchBytes());
        ByteBuffer direct = boundTimestamps(batch, encoded.directCopy());
        // Not staged here (the staging buffer is the calling thread's, and this thread goes on before the write is
        // done), but the transport's own direct copy, if it has one, is written as it is.
        writer.appendAsync(new AppendRequest(log, batch, durability == Durability.SYNC, direct,
                new AppendRequest.Callback() {
                    @Override
                    public void completed(long first) {
                        meters.appendLatency(System.nanoTime() - start);
                        AppendRequest.handOn(continuation, () -> done.completed(first));
                    }

                    @Override
                    public void failed(RuntimeException cause) {
                        AppendRequest.handOn(continuation, () -> done.failed(cause));
                    }
                }));
        return true;
    }

    @Override
    public Record read(long offset) {
        long start = log.startOffset();
        long end = log.endOffset();
        if (offset < start || offset >= end) {
            throw new OffsetOutOfRangeException("offset " + offset + " is outside log queue '" + name()
                    + "' [" + start + ", " + end + ")");
        }
        List<Record> records = log.read(offset, 1, Long.MAX_VALUE);
        return records.isEmpty() || records.get(0).offset() != offset ? null : records.get(0);
    }

    @Override
    public List<Record> read(long fromOffset, int maxRecords, long maxBytes) {
        return log.read(fromOffset, maxRecords, maxBytes);
    }

    @Override
    public List<Record> poll(long fromOffset, int maxRecords, long maxBytes, Duration wait)
            throws InterruptedException {
        if (maxRecords <= 0) {
            throw new IllegalArgumentException("maxRecords must be positive: " + maxRecords);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long end = log.endOffset();
            List<Record> records = log.read(fromOffset, maxRecords, maxBytes);
            long remaining = deadline - System.nanoTime();
            if (!records.isEmpty() || remaining <= 0) {
                return records;
            }
            // Nothing at or after fromOffset below `end` (it may all have been compacted away): wait for an
            // append past both.
            log.awaitBeyond(Math.max(end, fromOffset + 1) - 1, remaining);
        }
    }

    @Override
    public long poll(long fromOffset, int maxRecords, Duration wait, RecordHandler handler)
            throws InterruptedException {
        if (maxRecords <= 0) {
            throw new IllegalArgumentException("maxRecords must be positive: " + maxRecords);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long end = log.endOffset();
            RecordSink sink = RecordSink.toHandler(handler, maxRecords);
            long next = log.read(fromOffset, sink);
            long remaining = deadline - System.nanoTime();
            if (sink.taken() > 0 || remaining <= 0) {
                return sink.taken() > 0 ? next : fromOffset;
            }
            log.awaitBeyond(Math.max(end, fromOffset + 1) - 1, remaining);
        }
    }

    @Override
    public long pollEncoded(long fromOffset, long maxBytes, int maxBatchBytes, Duration wait,
                            EncodedBatchHandler handler) throws InterruptedException {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            long end = log.endOffset();
            RecordSink sink = RecordSink.toBatches(handler, maxBytes, maxBatchBytes);
            long next = log.read(fromOffset, sink);
            long remaining = deadline - System.nanoTime();
            if (sink.taken() > 0 || remaining <= 0) {
                return sink.taken() > 0 ? next : fromOffset;
            }
            log.awaitBeyond(Math.max(end, fromOffset + 1) - 1, remaining);
        }
    }

    @Override
    public long startOffset() {
        return log.startOffset();
    }

    @Override
    public long endOffset() {
        return log.endOffset();
    }

    @Override
    public long offsetForTimestamp(long timestampMillis) {
        return log.offsetForTimestamp(timestampMillis);
    }

    @Override
    public SharedGroup sharedGroup(String name, SharedGroupConfig config) {
        return sharedGroup(name, config, null);
    }

    @Override
    public SharedGroup sharedGroup(String name, SharedGroupConfig config, TaskFilter admissionFilter) {
        return sharedGroup(name, config, admissionFilter, OffsetReset.earliest());
    }

    @Override
    public SharedGroup sharedGroup(String name, SharedGroupConfig config, TaskFilter admissionFilter,
                                   OffsetReset startIfNew) {
        QueueNames.check("consumer group", name);
        synchronized (groups) {
            if (groups.containsKey(name)) {
                throw new IllegalStateException("consumer group '" + name + "' of log queue '" + name()
                        + "' is an exclusive group, not a shared one");
            }
            SharedGroupHandle g = shared.getOrCreate(name, config,
                    () -> GroupHandle.resolve(this, startIfNew));
            if (admissionFilter != null) {
                g.admissionFilter(admissionFilter);
            }
            return g;
        }
    }

    @Override
    public ConsumerGroup group(String name) {
        QueueNames.check("consumer group", name);
        if (shared.contains(name)) {
            throw new IllegalStateException("consumer group '" + name + "' of log queue '" + name()
                    + "' is a shared group: use sharedGroup(name, config)");
        }
        GroupHandle g = groups.get(name);
        if (g != null) {
            return g;
        }
        synchronized (groups) {
            g = groups.get(name);
            if (g == null) {
                if (offsets.committed(name) == null) {
                    offsets.commit(name, OffsetsDescriptor.NO_COMMIT);
                }
                g = registerGroup(name);
            }
            return g;
        }
    }

    private GroupHandle registerGroup(String name) {
        GroupHandle g = new GroupHandle(name, this);
        groups.put(name, g);
        meters.groupLag(name, n -> groups.containsKey(n) ? groups.get(n).lag() : 0);
        return g;
    }

    @Override
    public List<String> groups() {
        java.util.TreeSet<String> all = new java.util.TreeSet<>(offsets.groups());
        all.addAll(shared.names());
        return new java.util.ArrayList<>(all);
    }

    @Override
    public boolean deleteGroup(String name) {
        synchronized (groups) {
            if (shared.delete(name)) {
                return true;
            }
            if (groups.remove(name) == null) {
                return false;
            }
            offsets.commit(name, OffsetsDescriptor.DELETED);
            return true;
        }
    }

    @Override
    public long applyRetention() {
        try {
            return Retention.apply(log, limits.timeSource().wallMillis());
        } catch (IOException e) {
            throw new UncheckedIOException("retention of " + log.describe(), e);
        }
    }

    @Override
    public long compact() {
        try {
            return compactor.compact(limits.timeSource().wallMillis());
        } catch (IOException e) {
            throw new UncheckedIOException("compaction of " + log.describe(), e);
        }
    }

    @Override
    public QueueStats stats() {
        long start = log.startOffset();
        long end = log.endOffset();
        return new QueueStats(name(), QueueKind.LOG, start, end, end - start, log.bytesOnDisk(), log.segmentCount(),
                log.appendedRecords(), log.appendedBytes(), log.readRecords(), log.cacheHits(), log.cacheMisses());
    }

    // ---------------------------------------------------------------------------------------- transactions

    @Override
    public SegmentedLog txLog() {
        return log;
    }

    @Override
    public void validate(List<TxOp> ops) {
        if (!log.isOpen()) {
            throw new io.mikyu.engine.StoreClosedException(log.describe() + " is closed");
        }
        BatchEncoder.encode(entries(ops), 0, limits.maxRecordBytes(), limits.maxBatchBytes()); // size limits
    }

    @Override
    public List<TxWrite> prepareWrites(List<TxOp> ops, long txId) {
        byte[] batch = BatchEncoder.encode(entries(ops), limits.timeSource().wallMillis(), limits.maxRecordBytes(),
                limits.maxBatchBytes(), io.mikyu.engine.internal.format.BatchDescriptor.TYPE_DATA, txId);
        // appended records are visible once written; nothing is kept in memory
        return List.of(new TxWrite(new AppendRequest(log, batch, true), () -> { }));
    }

    @Override
    public void hold(List<TxOp> ops) {
    }

    @Override
    public void release(List<TxOp> ops) {
    }

    private static List<Entry> entries(List<TxOp> ops) {
        List<Entry> entries = new java.util.ArrayList<>(ops.size());
        for (TxOp op : ops) {
            if (op instanceof TxOp.Append a) {
                entries.add(a.entry());
            }
        }
        return entries;
    }

    @Override
    public String toString() {
        return "LogQueue[" + name() + "]";
    }
}
