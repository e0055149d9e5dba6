package io.mikyu.client;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Durability;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.engine.EncodedBatchHandler;
import io.mikyu.engine.Entry;
import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordView;
import io.mikyu.engine.RecordHandler;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.spi.BatchCodec;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.MalformedFrameException;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/** A log queue on a broker. Every request names the queue; the handle holds its name and settings. */
final class RemoteLogQueue extends RemoteHandle implements LogQueue {

    static final int RECORD_MIN_BYTES = 8 + 8 + 4 + 4 + 4;
    /** Items of a POLL_ENCODED answer: a stored batch, or a record of a batch too large for one frame. */
    private static final int ITEM_BATCH = 0;
    private static final int ITEM_RECORD = 1;
    private static final int ITEM_MIN_BYTES = 1 + 4;

    private final RemoteMikyu store;
    private final LogQueueConfig config;
    /** What a damaged batch in an answer is reported as coming from. */
    private final String answerSource;

    RemoteLogQueue(RemoteMikyu store, BrokerChannel channel, String name, LogQueueConfig config) {
        super(channel, name);
        this.store = store;
        this.config = config;
        this.answerSource = "answer of " + channel.endpoint() + " for " + name;
    }

    /** {@code queue:string} */
    @Override
    void writeNames(ByteBuf b) {
        Fields.writeString(b, name());
    }

    RemoteMikyu store() {
        return store;
    }

    @Override
    public LogQueueConfig config() {
        return config;
    }

    @Override
    public long append(Entry entry, Durability durability) {
        return appendBatch(List.of(Objects.requireNonNull(entry, "entry")), durability);
    }

    /**
     * {@code queue:string durability entries} → {@code firstOffset:i64}; or, where the broker takes them, the
     * entries encoded here in the engine's batch layout (APPEND_ENCODED), which the broker checks and writes as they
     * are instead of decoding and encoding them again.
     */
    @Override
    public long appendBatch(List<Entry> entries, Durability durability) {
        Objects.requireNonNull(durability, "durability");
        if (channel.encodedBatches() && !entries.isEmpty()) {
            // Encoded straight into the request frame: the layout of appendEncoded, without a copy in between.
            int size = BatchCodec.encodedSize(entries);
            return call(Op.APPEND_ENCODED, b -> {
                Values.writeDurability(b, durability);
                b.writeInt(size);
                b.ensureWritable(size);
                BatchCodec.encodeInto(entries, b.nioBuffer(b.writerIndex(), size));
                b.writerIndex(b.writerIndex() + size);
            }, Fields::readLong);
        }
        return call(Op.APPEND, b -> {
            Values.writeDurability(b, durability);
            Values.writeEntries(b, entries);
        }, Fields::readLong);
    }

    /** {@code queue:string durability batch:bytes} → {@code firstOffset:i64} */
    @Override
    public long appendEncoded(EncodedBatch batch, Durability durability) {
        Objects.requireNonNull(durability, "durability");
        byte[] bytes = batch.bytes();
        return call(Op.APPEND_ENCODED, b -> {
            Values.writeDurability(b, durability);
            Fields.writeBytes(b, bytes);
        }, Fields::readLong);
    }

    /** {@code queue:string offset:i64} → {@code present:bool [record]} */
    @Override
    public Record read(long offset) {
        return call(Op.READ_ONE, b -> {
            b.writeLong(offset);
        }, b -> Fields.readBool(b) ? Values.readRecord(b) : null);
    }

    /** {@code queue:string from:i64 max:i32 maxBytes:i64} → records */
    @Override
    public List<Record> read(long fromOffset, int maxRecords, long maxBytes) {
        if (channel.encodedBatches()) {
            try {
                return pollEncodedRecords(fromOffset, maxRecords, maxBytes, Duration.ZERO);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new io.mikyu.engine.MikyuException("interrupted while reading " + name());
            }
        }
        return callList(Op.READ, b -> {
            b.writeLong(fromOffset).writeInt(maxRecords).writeLong(maxBytes);
        }, Values::readRecord, RECORD_MIN_BYTES);
    }

    /** {@code queue:string from:i64 max:i32 maxBytes:i64 wait:millis} → records */
    @Override
    public List<Record> poll(long fromOffset, int maxRecords, long maxBytes, Duration wait)
            throws InterruptedException {
        if (channel.encodedBatches()) {
            return pollEncodedRecords(fromOffset, maxRecords, maxBytes, wait);
        }
        return callList(Op.POLL, b -> {
            b.writeLong(fromOffset).writeInt(maxRecords).writeLong(maxBytes);
            Fields.writeMillis(b, wait);
        }, Values::readRecord, RECORD_MIN_BYTES, wait);
    }

    /**
     * With encoded batches the records are shown in place, in the answer's buffer, as the engine shows them in
     * process; without, each is shown through a view of its copy.
     */
    @Override
    public long poll(long fromOffset, int maxRecords, Duration wait, RecordHandler handler)
            throws InterruptedException {
        if (maxRecords <= 0) {
            throw new IllegalArgumentException("maxRecords must be positive: " + maxRecords);
        }
        if (channel.encodedBatches()) {
            return pollEncoded(fromOffset, Long.MAX_VALUE, wait, maxRecords, handler);
        }
        List<Record> records = poll(fromOffset, maxRecords, Long.MAX_VALUE, wait);
        for (Record r : records) {
            handler.onRecord(RecordView.of(r));
        }
        return records.isEmpty() ? fromOffset : records.get(records.size() - 1).offset() + 1;
    }

    @Override
    public long pollEncoded(long fromOffset, long maxBytes, int maxBatchBytes, Duration wait,
                            EncodedBatchHandler handler) {
        throw new UnsupportedOperationException("pollEncoded is for the broker's side of a connection; a dialled"
                + " queue reads with poll, which uses encoded batches itself");
    }

    /** The list form of {@link #pollEncoded(long, long, Duration, int, RecordHandler)}, within {@code maxBytes}. */
    private List<Record> pollEncodedRecords(long from, int max, long maxBytes, Duration wait)
            throws InterruptedException {
        if (max <= 0) {
            throw new IllegalArgumentException("maxRecords must be positive: " + max);
        }
        List<Record> out = new ArrayList<>();
        long[] bytes = {0};
        pollEncoded(from, maxBytes, wait, max, view -> {
            if (out.isEmpty() || bytes[0] < maxBytes) {
                Record r = view.toRecord();
                bytes[0] += r.size();
                out.add(r);
            }
        });
        return out;
    }

    /**
     * {@code queue:string from:i64 maxBytes:i64 wait:millis} → {@code list<item>}, an item being a stored batch
     * ({@code 0:u8 batch:bytes}, checked and then read in place from the answer) or a record of a batch too large
     * for a frame ({@code 1:u8 record}). Shows at most {@code max} records at or after {@code from} to
     * {@code each}; returns the offset to continue from ({@code from} if none came).
     */
    private long pollEncoded(long from, long maxBytes, Duration wait, int max, RecordHandler each)
            throws InterruptedException {
        long[] next = {from};
        int[] shown = {0};
        RecordHandler counting = view -> {
            shown[0]++;
            each.onRecord(view);
        };
        callList(Op.POLL_ENCODED, b -> {
            b.writeLong(from).writeLong(Math.max(1, maxBytes));
            Fields.writeMillis(b, wait);
        }, b -> {
            int kind = Fields.readU8(b);
            if (kind == ITEM_BATCH) {
                int length = Fields.readRequiredLength(b, "batch");
                ByteBuffer batch = b.nioBuffer(b.readerIndex(), length);
                b.skipBytes(length);
                if (shown[0] < max) {
                    next[0] = BatchCodec.forEachRecord(batch, next[0], max - shown[0], counting, answerSource);
                }
            } else if (kind == ITEM_RECORD) {
                Record r = Values.readRecord(b);
                if (shown[0] < max && r.offset() >= next[0]) {
                    counting.onRecord(RecordView.of(r));
                    next[0] = r.offset() + 1;
                }
            } else {
                throw new MalformedFrameException("unknown item kind " + kind + " in an answer to POLL_ENCODED");
            }
            return Boolean.TRUE;
        }, ITEM_MIN_BYTES, wait);
        return next[0];
    }

    @Override
    public long startOffset() {
        return call(Op.START_OFFSET, Fields::readLong);
    }

    @Override
    public long endOffset() {
        return call(Op.END_OFFSET, Fields::readLong);
    }

    @Override
    public long offsetForTimestamp(long timestampMillis) {
        return call(Op.OFFSET_FOR_TIMESTAMP, b -> {
            b.writeLong(timestampMillis);
        }, Fields::readLong);
    }

    @Override
    public ConsumerGroup group(String group) {
        call(Op.GROUP_OPEN, b -> {
            Fields.writeString(b, group);
        }, b -> null);
        return new RemoteConsumerGroup(channel, name(), group);
    }

    @Override
    public SharedGroup sharedGroup(String group, SharedGroupConfig config) {
        return sharedGroup(group, config, null);
    }

    @Override
    public SharedGroup sharedGroup(String group, SharedGroupConfig config, TaskFilter admissionFilter) {
        return sharedGroup(group, config, admissionFilter, OffsetReset.earliest());
    }

    /**
     * {@code queue:string group:string config filter startIfNew:offsetReset} → {@code config}: the group's stored
     * settings.
     */
    @Override
    public SharedGroup sharedGroup(String group, SharedGroupConfig config, TaskFilter admissionFilter,
                                   OffsetReset startIfNew) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(startIfNew, "startIfNew");
        FilterExpression filter = RemoteTaskQueue.expressionOf(admissionFilter);
        Consumer<ByteBuf> open = b -> {
            Fields.writeString(b, name());
            Fields.writeString(b, group);
            Values.writeSharedConfig(b, config);
            Values.writeFilter(b, filter);
            Values.writeOffsetReset(b, startIfNew);
        };
        SharedGroupConfig stored = channel.call(Op.SHARED_OPEN, open, Values::readSharedConfig);
        channel.replay().opened(name(), group, open);
        return new RemoteSharedGroup(channel, this, group, stored);
    }

    @Override
    public List<String> groups() {
        return callList(Op.GROUPS, b -> { }, b -> Fields.readRequiredString(b, "group"), 4);
    }

    @Override
    public boolean deleteGroup(String group) {
        channel.replay().forgetGroup(name(), group);
        return call(Op.DELETE_GROUP, b -> {
            Fields.writeString(b, group);
        }, Fields::readBool);
    }

    @Override
    public long applyRetention() {
        return call(Op.APPLY_RETENTION, Fields::readLong);
    }

    @Override
    public long compact() {
        return call(Op.COMPACT, Fields::readLong);
    }

    @Override
    public QueueStats stats() {
        return call(Op.LOG_STATS, Values::readQueueStats);
    }

    @Override
    public String toString() {
        return "RemoteLogQueue[" + name() + "]";
    }
}
