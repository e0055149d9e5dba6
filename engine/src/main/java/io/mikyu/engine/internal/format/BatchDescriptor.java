package io.mikyu.engine.internal.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Layout of a record batch, the unit written to a segment, cached, and indexed. All fields little-endian.
 *
 * <pre>
 *   0                   8                  12                 16
 *   +-------------------+------------------+------------------+
 *   | baseOffset int64  | length int32     | crc32c int32     |   length = bytes after the length field
 *   +------+------+-----+------------------+------------------+   crc32c covers [16, 12 + length)
 *   |ver i8|typ i8|attr i16| lastOffsetDelta int32            |
 *   +-------------------------------------+-------------------+
 *   | maxTimestamp int64                  | producerId int64  |   producerId: the transaction id, or 0
 *   +-------------------+-----------------+-------------------+
 *   | recordCount int32 | records ...                             (RecordDescriptor)
 *   +-------------------+
 * </pre>
 *
 * <p>The base offset is assigned by the writer thread after the producer has encoded and checksummed the batch,
 * which is why it sits outside the CRC: producers do the expensive work in parallel, the single writer only
 * patches eight bytes. Recovery checks it by continuity instead (each batch starts where the previous ended).
 */
public final class BatchDescriptor {

    public static final byte VERSION = 1;

    /** Ordinary records of a log queue. */
    public static final byte TYPE_DATA = 1;
    /** Enqueued tasks of a task queue: the record key holds the task's metadata ({@link TaskRecordDescriptor}). */
    public static final byte TYPE_TASK = 2;
    /** Task state changes (lease, ack, nack, dead letter): the record value holds one operation. */
    public static final byte TYPE_TASK_STATE = 3;
    /** Records of the store's transaction log ({@code TransactionRecord}). */
    public static final byte TYPE_TRANSACTION = 4;

    public static final int BASE_OFFSET_OFFSET = 0;
    public static final int LENGTH_OFFSET = 8;
    public static final int CRC_OFFSET = 12;
    public static final int VERSION_OFFSET = 16;
    public static final int TYPE_OFFSET = 17;
    public static final int ATTRIBUTES_OFFSET = 18;
    public static final int LAST_OFFSET_DELTA_OFFSET = 20;
    public static final int MAX_TIMESTAMP_OFFSET = 24;
    public static final int PRODUCER_ID_OFFSET = 32;
    public static final int RECORD_COUNT_OFFSET = 40;
    public static final int HEADER_LENGTH = 44;

    /** Bytes before {@link #LENGTH_OFFSET}'s value starts counting. */
    public static final int LOG_OVERHEAD = 12;
    /** First byte the checksum covers. */
    public static final int CRC_START = VERSION_OFFSET;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private BatchDescriptor() {
    }

    /** Total size in bytes of the batch whose length field holds {@code length}. */
    public static int totalSize(int length) {
        return LOG_OVERHEAD + length;
    }

    public static void putBaseOffset(byte[] batch, long baseOffset) {
        LONG.set(batch, BASE_OFFSET_OFFSET, baseOffset);
    }

    public static long baseOffset(byte[] batch) {
        return (long) LONG.get(batch, BASE_OFFSET_OFFSET);
    }

    public static int lastOffsetDelta(byte[] batch) {
        return (int) INT.get(batch, LAST_OFFSET_DELTA_OFFSET);
    }

    public static int recordCount(byte[] batch) {
        return (int) INT.get(batch, RECORD_COUNT_OFFSET);
    }

    public static long maxTimestamp(byte[] batch) {
        return (long) LONG.get(batch, MAX_TIMESTAMP_OFFSET);
    }

    // ByteBuffer accessors: the buffer must be little-endian; pos is the batch start.

    public static long baseOffset(ByteBuffer buf, int pos) {
        return buf.getLong(pos + BASE_OFFSET_OFFSET);
    }

    public static int length(ByteBuffer buf, int pos) {
        return buf.getInt(pos + LENGTH_OFFSET);
    }

    public static int crc(ByteBuffer buf, int pos) {
        return buf.getInt(pos + CRC_OFFSET);
    }

    public static byte version(ByteBuffer buf, int pos) {
        return buf.get(pos + VERSION_OFFSET);
    }

    public static byte type(byte[] batch) {
        return batch[TYPE_OFFSET];
    }

    public static byte type(ByteBuffer buf, int pos) {
        return buf.get(pos + TYPE_OFFSET);
    }

    public static int lastOffsetDelta(ByteBuffer buf, int pos) {
        return buf.getInt(pos + LAST_OFFSET_DELTA_OFFSET);
    }

    public static long maxTimestamp(ByteBuffer buf, int pos) {
        return buf.getLong(pos + MAX_TIMESTAMP_OFFSET);
    }

    public static long producerId(ByteBuffer buf, int pos) {
        return buf.getLong(pos + PRODUCER_ID_OFFSET);
    }

    public static int recordCount(ByteBuffer buf, int pos) {
        return buf.getInt(pos + RECORD_COUNT_OFFSET);
    }
}
