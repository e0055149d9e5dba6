package io.mikyu.protocol;

/**
 * The requests, by the frame type that carries them. Each one is a method of the engine's interface; its body
 * (arguments) and its {@link FrameDescriptor#RESULT} body are listed in {@code docs/protocol.md}. Codes are
 * grouped by the interface they belong to and never reused.
 */
public enum Op {
    // Mikyu
    CREATE_LOG(0x10),
    GET_OR_CREATE_LOG(0x11),
    GET_LOG(0x12),
    DELETE_LOG(0x13),
    CREATE_TASK_QUEUE(0x14),
    GET_OR_CREATE_TASK_QUEUE(0x15),
    GET_TASK_QUEUE(0x16),
    DELETE_TASK_QUEUE(0x17),
    LIST(0x18),
    STATS(0x19),
    RECOVERY_REPORT(0x1A),
    FLUSH(0x1B),
    CLAIM(0x1C),
    RELEASE_CLAIM(0x1D),
    CLAIM_HOLDERS(0x1E),
    /** Feature GUARDED_DELETES. */
    DELETE_GROUP_UNLESS_CLAIMED(0x1F),
    // Transactions: built on the client, sent whole
    TX_COMMIT(0x20),
    TX_PREPARE(0x21),
    PREPARED_TRANSACTIONS(0x22),
    COMMIT_PREPARED(0x23),
    ROLLBACK_PREPARED(0x24),
    /** Feature XA. */
    IN_DOUBT_TRANSACTIONS(0x25),
    // LogQueue
    APPEND(0x30),
    READ_ONE(0x31),
    READ(0x32),
    POLL(0x33),
    START_OFFSET(0x34),
    END_OFFSET(0x35),
    OFFSET_FOR_TIMESTAMP(0x36),
    GROUPS(0x37),
    DELETE_GROUP(0x38),
    APPLY_RETENTION(0x39),
    COMPACT(0x3A),
    LOG_STATS(0x3B),
    APPEND_ENCODED(0x3C),
    POLL_ENCODED(0x3D),
    // ConsumerGroup
    GROUP_OPEN(0x40),
    GROUP_POSITION(0x41),
    GROUP_HAS_COMMITTED(0x42),
    GROUP_COMMIT(0x43),
    GROUP_RESET(0x44),
    GROUP_POLL(0x45),
    GROUP_LAG(0x46),
    // SharedGroup
    SHARED_OPEN(0x50),
    SHARED_FETCH(0x51),
    SHARED_ACK(0x52),
    SHARED_NACK(0x53),
    SHARED_EXTEND(0x54),
    SHARED_COMMITTED(0x55),
    SHARED_COUNTS(0x56),
    SHARED_LAG(0x57),
    SHARED_RETURN_UNDELIVERED(0x58),
    /** Feature DURABLE_ACKS. */
    SHARED_ACK_DURABLE(0x59),
    // TaskQueue
    ENQUEUE(0x60),
    DEQUEUE(0x61),
    TASK_ACK(0x62),
    TASK_NACK(0x63),
    TASK_EXTEND(0x64),
    BROWSE(0x65),
    PURGE(0x66),
    TASK_COUNTS(0x67),
    TASK_STATS(0x68),
    TASK_RETURN_UNDELIVERED(0x69),
    /** Feature DURABLE_ACKS. */
    TASK_ACK_DURABLE(0x6A),
    /** Feature TRANSIENT_TASKS: tasks held in the broker's memory only (JMS NON_PERSISTENT queue messages). */
    ENQUEUE_TRANSIENT(0x6B),
    // Consumer streams (feature STREAMS): pushed deliveries under credit
    STREAM_TASKS(0x70),
    STREAM_SHARED(0x71),
    STREAM_CLOSE(0x72),
    // Large bodies (feature LARGE_BODIES): streamed in chunks, one frame each
    BODY_OPEN(0x73),
    BODY_CHUNK(0x74),
    BODY_PUBLISH(0x75),
    BODY_CLOSE(0x76),
    BODY_READ(0x77);

    private static final Op[] BY_CODE = new Op[256];

    static {
        for (Op op : values()) {
            if (BY_CODE[op.code] != null) {
                throw new ExceptionInInitializerError("two ops with code " + op.code);
            }
            BY_CODE[op.code] = op;
        }
    }

    private final int code;

    Op(int code) {
        this.code = code;
    }

    /** The frame type that carries this request. */
    public int code() {
        return code;
    }

    /** The op with this frame type, or {@code null}. */
    public static Op of(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
