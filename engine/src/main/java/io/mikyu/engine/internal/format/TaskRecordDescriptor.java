package io.mikyu.engine.internal.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * How a task queue uses the record layout. A task queue's log holds two batch types:
 *
 * <p>{@link BatchDescriptor#TYPE_TASK}: one record per enqueued task; its offset is the task id, value and headers
 * are the task's, and the key holds its metadata:
 * <pre>
 *   0             1                 9                 17
 *   | priority i8 | deliverAt int64 | expiresAt int64 |        (epoch millis, 0 = none)
 * </pre>
 *
 * <p>{@link BatchDescriptor#TYPE_TASK_STATE}: one record per state change, key null, value:
 * <pre>
 *   0       1             9             17                  25
 *   | op i8 | taskId i64  | lease i64   | time int64        | attempts int32 | reason UTF-8 ...
 * </pre>
 * {@code op} is {@link #LEASE} (time = lease expiry, attempts = delivery count), {@link #ACK}, {@link #NACK}
 * (time = visible again at), {@link #DEAD} (moved to the dead-letter queue, reason) or {@link #EXTEND} (time = new
 * lease expiry). Replaying these in log order rebuilds every task's state; lease expiry needs no record of its own
 * since it follows from the recorded expiry time.
 */
public final class TaskRecordDescriptor {

    public static final int META_PRIORITY = 0;
    public static final int META_DELIVER_AT = 1;
    public static final int META_EXPIRES_AT = 9;
    public static final int META_LENGTH = 17;

    public static final byte LEASE = 1;
    public static final byte ACK = 2;
    public static final byte NACK = 3;
    public static final byte DEAD = 4;
    public static final byte EXTEND = 5;

    public static final int OP = 0;
    public static final int TASK_ID = 1;
    public static final int LEASE_ID = 9;
    public static final int TIME = 17;
    public static final int ATTEMPTS = 25;
    public static final int REASON = 29;

    private TaskRecordDescriptor() {
    }

    public static byte[] meta(int priority, long deliverAt, long expiresAt) {
        ByteBuffer b = ByteBuffer.allocate(META_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        b.put(META_PRIORITY, (byte) priority).putLong(META_DELIVER_AT, deliverAt).putLong(META_EXPIRES_AT, expiresAt);
        return b.array();
    }

    public static byte[] state(byte op, long taskId, long lease, long time, int attempts, String reason) {
        byte[] r = reason == null ? new byte[0] : reason.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(REASON + r.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(OP, op).putLong(TASK_ID, taskId).putLong(LEASE_ID, lease).putLong(TIME, time).putInt(ATTEMPTS, attempts);
        b.put(REASON, r);
        return b.array();
    }

    /** A decoded state record. */
    public record State(byte op, long taskId, long lease, long time, int attempts, String reason) {

        public static State decode(byte[] value) {
            if (value == null || value.length < REASON) {
                throw new IllegalArgumentException("task state record too short");
            }
            ByteBuffer b = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
            String reason = value.length == REASON ? null
                    : new String(value, REASON, value.length - REASON, StandardCharsets.UTF_8);
            return new State(b.get(OP), b.getLong(TASK_ID), b.getLong(LEASE_ID), b.getLong(TIME), b.getInt(ATTEMPTS),
                    reason);
        }
    }

    /** Decoded task metadata. */
    public record Meta(int priority, long deliverAt, long expiresAt) {

        public static Meta decode(byte[] key) {
            if (key == null || key.length < META_LENGTH) {
                throw new IllegalArgumentException("task metadata too short");
            }
            ByteBuffer b = ByteBuffer.wrap(key).order(ByteOrder.LITTLE_ENDIAN);
            return new Meta(b.get(META_PRIORITY), b.getLong(META_DELIVER_AT), b.getLong(META_EXPIRES_AT));
        }
    }
}
