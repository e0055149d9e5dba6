package io.mikyu.protocol;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineStats;
import io.mikyu.engine.Entry;
import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueueConfig;
import io.netty.buffer.ByteBuf;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

import static io.mikyu.protocol.Fields.readBytes;
import static io.mikyu.protocol.Fields.readInt;
import static io.mikyu.protocol.Fields.readLong;
import static io.mikyu.protocol.Fields.readMillis;
import static io.mikyu.protocol.Fields.readRequiredBytes;
import static io.mikyu.protocol.Fields.readRequiredMillis;
import static io.mikyu.protocol.Fields.readRequiredString;
import static io.mikyu.protocol.Fields.readString;
import static io.mikyu.protocol.Fields.readU8;
import static io.mikyu.protocol.Fields.writeBytes;
import static io.mikyu.protocol.Fields.writeMillis;
import static io.mikyu.protocol.Fields.writeString;

/**
 * The engine's values on the wire, one writer and one reader each, laid out as {@code docs/protocol.md} draws
 * them.
 *
 * <p>Written by hand on {@link ByteBuf} rather than through a serialization library: the layout is the protocol
 * other languages implement, so it must be explicit; appends, enqueues and deliveries cross here for every message,
 * so they are written straight into the pooled frame buffer without intermediate objects or reflection; and each
 * field is bounds-checked as it is read ({@link Fields}), which no generic decoder does for us.
 */
public final class Values {

    private static final int ENTRY_MIN_BYTES = 4 + 4 + 4 + 8;
    private static final int TASK_MIN_BYTES = 4 + 4 + 1 + 8 + 8;
    private static final int TOKEN_BYTES = 16;

    private Values() {
    }

    // ----------------------------------------------------------------------------------------------- enums

    public static void writeDurability(ByteBuf buf, Durability durability) {
        buf.writeByte(durability == Durability.SYNC ? 0 : 1);
    }

    public static Durability readDurability(ByteBuf buf) {
        return switch (readU8(buf)) {
            case 0 -> Durability.SYNC;
            case 1 -> Durability.ASYNC;
            default -> throw new MalformedFrameException("unknown durability");
        };
    }

    /** {@code mode:u8}: 0 exclusive, 1 shared. */
    public static void writeClaimMode(ByteBuf buf, io.mikyu.engine.ClaimMode mode) {
        buf.writeByte(mode == io.mikyu.engine.ClaimMode.EXCLUSIVE ? 0 : 1);
    }

    public static io.mikyu.engine.ClaimMode readClaimMode(ByteBuf buf) {
        return switch (readU8(buf)) {
            case 0 -> io.mikyu.engine.ClaimMode.EXCLUSIVE;
            case 1 -> io.mikyu.engine.ClaimMode.SHARED;
            default -> throw new MalformedFrameException("unknown claim mode");
        };
    }

    public static void writeKind(ByteBuf buf, QueueKind kind) {
        buf.writeByte(kind == QueueKind.LOG ? 0 : 1);
    }

    public static QueueKind readKind(ByteBuf buf) {
        return switch (readU8(buf)) {
            case 0 -> QueueKind.LOG;
            case 1 -> QueueKind.TASK;
            default -> throw new MalformedFrameException("unknown queue kind");
        };
    }

    /** {@code kind:u8 value:i64}: 0 earliest, 1 latest, 2 to offset, 3 to timestamp. */
    public static void writeOffsetReset(ByteBuf buf, OffsetReset reset) {
        if (reset instanceof OffsetReset.Earliest) {
            buf.writeByte(0).writeLong(0);
        } else if (reset instanceof OffsetReset.Latest) {
            buf.writeByte(1).writeLong(0);
        } else if (reset instanceof OffsetReset.ToOffset o) {
            buf.writeByte(2).writeLong(o.offset());
        } else if (reset instanceof OffsetReset.ToTimestamp t) {
            buf.writeByte(3).writeLong(t.timestampMillis());
        } else {
            throw new IllegalArgumentException("unknown offset reset: " + reset);
        }
    }

    public static OffsetReset readOffsetReset(ByteBuf buf) {
        int kind = readU8(buf);
        long value = readLong(buf);
        return switch (kind) {
            case 0 -> OffsetReset.earliest();
            case 1 -> OffsetReset.latest();
            case 2 -> OffsetReset.toOffset(value);
            case 3 -> OffsetReset.toTimestamp(value);
            default -> throw new MalformedFrameException("unknown offset reset " + kind);
        };
    }

    // ----------------------------------------------------------------------------------- records and tasks

    public static void writeHeaders(ByteBuf buf, Headers headers) {
        List<Headers.Header> list = headers.asList();
        buf.writeInt(list.size());
        for (Headers.Header h : list) {
            writeString(buf, h.name());
            writeBytes(buf, h.value());
        }
    }

    public static Headers readHeaders(ByteBuf buf) {
        int count = Fields.readCount(buf, 8);
        if (count == 0) {
            return Headers.EMPTY;
        }
        Headers.Builder builder = Headers.builder();
        for (int i = 0; i < count; i++) {
            builder.add(readRequiredString(buf, "header name"), readBytes(buf));
        }
        return builder.build();
    }

    /** {@code key:bytes headers payload:bytes timestamp:i64} */
    public static void writeEntry(ByteBuf buf, Entry entry) {
        writeBytes(buf, entry.key());
        writeHeaders(buf, entry.headers());
        writeBytes(buf, entry.payload());
        buf.writeLong(entry.timestamp());
    }

    public static Entry readEntry(ByteBuf buf) {
        byte[] key = readBytes(buf);
        Headers headers = readHeaders(buf);
        byte[] payload = readBytes(buf);
        long timestamp = readLong(buf);
        if (key == null && payload == null) {
            throw new MalformedFrameException("an entry needs a payload, or a key for a tombstone");
        }
        return new Entry(key, headers, payload, timestamp);
    }

    public static void writeEntries(ByteBuf buf, List<Entry> entries) {
        writeList(buf, entries, Values::writeEntry);
    }

    public static List<Entry> readEntries(ByteBuf buf) {
        return readList(buf, ENTRY_MIN_BYTES, Values::readEntry);
    }

    /** {@code offset:i64 timestamp:i64 key:bytes headers payload:bytes} */
    public static void writeRecord(ByteBuf buf, Record record) {
        buf.writeLong(record.offset()).writeLong(record.timestamp());
        writeBytes(buf, record.key());
        writeHeaders(buf, record.headers());
        writeBytes(buf, record.payload());
    }

    public static Record readRecord(ByteBuf buf) {
        long offset = readLong(buf);
        long timestamp = readLong(buf);
        return new Record(offset, timestamp, readBytes(buf), readHeaders(buf), readBytes(buf));
    }

    /** {@code payload:bytes headers priority:u8 deliverAt:i64 expiresAt:i64} */
    public static void writeTask(ByteBuf buf, Task task) {
        writeBytes(buf, task.payload());
        writeHeaders(buf, task.headers());
        buf.writeByte(task.priority()).writeLong(task.deliverAt()).writeLong(task.expiresAt());
    }

    /** @throws IllegalArgumentException for a priority or time the engine refuses: an error, not a bad frame */
    public static Task readTask(ByteBuf buf) {
        byte[] payload = Fields.readRequiredBytes(buf, "task payload");
        Headers headers = readHeaders(buf);
        int priority = readU8(buf);
        long deliverAt = readLong(buf);
        long expiresAt = readLong(buf);
        return new Task(payload, headers, priority, deliverAt, expiresAt);
    }

    public static void writeTasks(ByteBuf buf, List<Task> tasks) {
        writeList(buf, tasks, Values::writeTask);
    }

    public static List<Task> readTasks(ByteBuf buf) {
        return readList(buf, TASK_MIN_BYTES, Values::readTask);
    }

    /** {@code taskId:i64 lease:i64} */
    public static void writeToken(ByteBuf buf, LeaseToken token) {
        buf.writeLong(token.taskId()).writeLong(token.lease());
    }

    public static LeaseToken readToken(ByteBuf buf) {
        return new LeaseToken(readLong(buf), readLong(buf));
    }

    public static void writeTokens(ByteBuf buf, List<LeaseToken> tokens) {
        writeList(buf, tokens, Values::writeToken);
    }

    public static List<LeaseToken> readTokens(ByteBuf buf) {
        return readList(buf, TOKEN_BYTES, Values::readToken);
    }

    /**
     * {@code id:i64 hasToken:bool [token] attempt:i32 priority:u8 enqueuedAt:i64 expiresAt:i64 leaseExpiresAt:i64
     * headers payload:bytes}; a browsed task has no token.
     */
    public static void writeLeasedTask(ByteBuf buf, LeasedTask task) {
        buf.writeLong(task.id());
        Fields.writeBool(buf, task.token() != null);
        if (task.token() != null) {
            writeToken(buf, task.token());
        }
        buf.writeInt(task.attempt()).writeByte(task.priority());
        buf.writeLong(task.enqueuedAt()).writeLong(task.expiresAt()).writeLong(task.leaseExpiresAt());
        writeHeaders(buf, task.headers());
        writeBytes(buf, task.payload());
    }

    public static LeasedTask readLeasedTask(ByteBuf buf) {
        long id = readLong(buf);
        LeaseToken token = Fields.readBool(buf) ? readToken(buf) : null;
        int attempt = readInt(buf);
        int priority = readU8(buf);
        long enqueuedAt = readLong(buf);
        long expiresAt = readLong(buf);
        long leaseExpiresAt = readLong(buf);
        return new LeasedTask(id, token, attempt, priority, enqueuedAt, expiresAt, leaseExpiresAt, readHeaders(buf),
                readBytes(buf));
    }

    /** {@code record token deliveryCount:i32 leaseExpiresAt:i64} */
    public static void writeDelivery(ByteBuf buf, SharedGroup.Delivery delivery) {
        writeRecord(buf, delivery.record());
        writeToken(buf, delivery.token());
        buf.writeInt(delivery.deliveryCount()).writeLong(delivery.leaseExpiresAt());
    }

    public static SharedGroup.Delivery readDelivery(ByteBuf buf) {
        Record record = readRecord(buf);
        return new SharedGroup.Delivery(record, readToken(buf), readInt(buf), readLong(buf));
    }

    /** {@code present:bool [language:string text:string]} */
    public static void writeFilter(ByteBuf buf, FilterExpression filter) {
        Fields.writeBool(buf, filter != null);
        if (filter != null) {
            writeString(buf, filter.language());
            writeString(buf, filter.text());
        }
    }

    public static FilterExpression readFilter(ByteBuf buf) {
        if (!Fields.readBool(buf)) {
            return null;
        }
        return new FilterExpression(readRequiredString(buf, "filter language"), readRequiredString(buf, "filter text"));
    }

    // --------------------------------------------------------------------------------------------- configs

    /**
     * {@code durability retentionAge:millis retentionBytes:i64 compacted:bool tombstoneRetention:millis
     * segmentBytes:i64}
     */
    public static void writeLogConfig(ByteBuf buf, LogQueueConfig config) {
        writeDurability(buf, config.durability());
        writeMillis(buf, config.retentionAge());
        buf.writeLong(config.retentionBytes());
        Fields.writeBool(buf, config.compacted());
        writeMillis(buf, config.tombstoneRetention());
        buf.writeLong(config.segmentBytes());
    }

    public static LogQueueConfig readLogConfig(ByteBuf buf) {
        return new LogQueueConfig(readDurability(buf), readMillis(buf), readLong(buf), Fields.readBool(buf),
                readRequiredMillis(buf, "tombstone retention"), readLong(buf));
    }

    /**
     * {@code durability maxAttempts:i32 backoffInitial:millis backoffMultiplier:f64 backoffMax:millis
     * defaultLease:millis segmentBytes:i64}
     */
    public static void writeTaskConfig(ByteBuf buf, TaskQueueConfig config) {
        writeDurability(buf, config.durability());
        buf.writeInt(config.maxAttempts());
        writeMillis(buf, config.backoffInitial());
        buf.writeDouble(config.backoffMultiplier());
        writeMillis(buf, config.backoffMax());
        writeMillis(buf, config.defaultLease());
        buf.writeLong(config.segmentBytes());
    }

    public static TaskQueueConfig readTaskConfig(ByteBuf buf) {
        return new TaskQueueConfig(readDurability(buf), readInt(buf), readRequiredMillis(buf, "backoff"),
                Fields.readDouble(buf), readRequiredMillis(buf, "backoff maximum"),
                readRequiredMillis(buf, "default lease"), readLong(buf));
    }

    /** {@code maxInFlight:i32 redelivery:taskConfig attributeCount:i32 (name:string value:string)*} */
    public static void writeSharedConfig(ByteBuf buf, SharedGroupConfig config) {
        buf.writeInt(config.maxInFlight());
        writeTaskConfig(buf, config.redelivery());
        buf.writeInt(config.attributes().size());
        config.attributes().forEach((name, value) -> {
            writeString(buf, name);
            writeString(buf, value);
        });
    }

    public static SharedGroupConfig readSharedConfig(ByteBuf buf) {
        int maxInFlight = readInt(buf);
        TaskQueueConfig redelivery = readTaskConfig(buf);
        int count = Fields.readCount(buf, 8);
        Map<String, String> attributes = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            attributes.put(readRequiredString(buf, "attribute name"), readRequiredString(buf, "attribute value"));
        }
        return new SharedGroupConfig(maxInFlight, redelivery, attributes);
    }

    // ----------------------------------------------------------------------------------------------- stats

    /** {@code ready:i64 scheduled:i64 inFlight:i64} */
    public static void writeCounts(ByteBuf buf, TaskCounts counts) {
        buf.writeLong(counts.ready()).writeLong(counts.scheduled()).writeLong(counts.inFlight());
    }

    public static TaskCounts readCounts(ByteBuf buf) {
        return new TaskCounts(readLong(buf), readLong(buf), readLong(buf));
    }

    /** The fields of {@link QueueStats} in their declared order; the kind as a u8, the segment count as an i32. */
    public static void writeQueueStats(ByteBuf buf, QueueStats s) {
        writeString(buf, s.name());
        writeKind(buf, s.kind());
        buf.writeLong(s.startOffset()).writeLong(s.endOffset()).writeLong(s.records()).writeLong(s.bytesOnDisk());
        buf.writeInt(s.segments());
        buf.writeLong(s.appendedRecords()).writeLong(s.appendedBytes()).writeLong(s.readRecords());
        buf.writeLong(s.cacheHits()).writeLong(s.cacheMisses());
    }

    public static QueueStats readQueueStats(ByteBuf buf) {
        return new QueueStats(readRequiredString(buf, "queue name"), readKind(buf), readLong(buf), readLong(buf),
                readLong(buf), readLong(buf), readInt(buf), readLong(buf), readLong(buf), readLong(buf),
                readLong(buf), readLong(buf));
    }

    /** The fields of {@link EngineStats} in their declared order; queue counts as i32. */
    public static void writeEngineStats(ByteBuf buf, EngineStats s) {
        writeString(buf, s.location());
        buf.writeInt(s.logQueues()).writeInt(s.taskQueues());
        buf.writeLong(s.bytesOnDisk()).writeLong(s.commits()).writeLong(s.commitRequests()).writeLong(s.fsyncs());
        buf.writeLong(s.appendedRecords()).writeLong(s.appendedBytes()).writeLong(s.cacheHits())
                .writeLong(s.cacheMisses()).writeLong(s.freeDiskBytes());
    }

    public static EngineStats readEngineStats(ByteBuf buf) {
        return new EngineStats(readString(buf), readInt(buf), readInt(buf), readLong(buf), readLong(buf),
                readLong(buf), readLong(buf), readLong(buf), readLong(buf), readLong(buf), readLong(buf),
                readLong(buf));
    }

    /** {@code count:i32 (kind:string file:string position:i64 detail:string)* recoveryMillis:i64} */
    public static void writeRecoveryReport(ByteBuf buf, RecoveryReport report) {
        writeList(buf, report.events(), (b, e) -> {
            writeString(b, e.kind().name());
            writeString(b, e.file());
            b.writeLong(e.position());
            writeString(b, e.detail());
        });
        buf.writeLong(report.recoveryMillis());
    }

    public static RecoveryReport readRecoveryReport(ByteBuf buf) {
        List<RecoveryReport.Event> events = readList(buf, 20, b -> {
            String kind = readRequiredString(b, "recovery event kind");
            RecoveryReport.Kind parsed;
            try {
                parsed = RecoveryReport.Kind.valueOf(kind);
            } catch (IllegalArgumentException e) {
                throw new MalformedFrameException("unknown recovery event kind " + kind);
            }
            return new RecoveryReport.Event(parsed, readString(b), readLong(b), readString(b));
        });
        return new RecoveryReport(events, readLong(buf));
    }

    /** {@code preparedTransaction}: {@code xid:bytes owner:string preparedAt:i64 list<queue:string>}. */
    public static void writePreparedTransaction(ByteBuf buf, PreparedTransaction p) {
        writeBytes(buf, p.xid());
        writeString(buf, p.owner());
        buf.writeLong(p.preparedAt().toEpochMilli());
        writeStrings(buf, p.queues());
    }

    public static PreparedTransaction readPreparedTransaction(ByteBuf buf) {
        byte[] xid = readRequiredBytes(buf, "xid");
        String owner = readString(buf);
        Instant preparedAt = Instant.ofEpochMilli(readLong(buf));
        return new PreparedTransaction(xid, owner, preparedAt, readStrings(buf));
    }

    // ----------------------------------------------------------------------------------------------- lists

    public static List<String> readStrings(ByteBuf buf) {
        return readList(buf, 4, b -> readRequiredString(b, "name"));
    }

    public static void writeStrings(ByteBuf buf, List<String> values) {
        writeList(buf, values, Fields::writeString);
    }

    /** {@code count:i32 item*} */
    public static <T> void writeList(ByteBuf buf, List<T> items, BiConsumer<ByteBuf, T> writer) {
        buf.writeInt(items.size());
        for (T item : items) {
            writer.accept(buf, item);
        }
    }

    public static <T> List<T> readList(ByteBuf buf, int minItemBytes, Function<ByteBuf, T> reader) {
        int count = Fields.readCount(buf, minItemBytes);
        List<T> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            items.add(reader.apply(buf));
        }
        return items;
    }
}
