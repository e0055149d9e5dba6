package io.mikyu.engine.internal.format;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.RecordTooLargeException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Encodes entries into one checksummed batch (see {@link BatchDescriptor}), on the producer's thread.
 *
 * <p>Encoding and CRC32C happen before the batch reaches the single writer thread, so the per-byte work of
 * appending spreads over all producing cores; the writer only assigns the base offset.
 * The base offset field is left 0; offsets inside are deltas from it.
 */
public final class BatchEncoder {

    private BatchEncoder() {
    }

    /**
     * Encodes {@code entries} with consecutive offsets. Entries without a timestamp get {@code nowMillis}.
     *
     * @throws RecordTooLargeException if one record exceeds {@code maxRecordBytes} or the batch {@code maxBatchBytes}
     */
    public static byte[] encode(List<Entry> entries, long nowMillis, int maxRecordBytes, int maxBatchBytes) {
        return encode(entries, nowMillis, maxRecordBytes, maxBatchBytes, BatchDescriptor.TYPE_DATA);
    }

    /** As {@link #encode(List, long, int, int)}, for a batch of the given type. */
    public static byte[] encode(List<Entry> entries, long nowMillis, int maxRecordBytes, int maxBatchBytes,
                                byte type) {
        return encode(entries, nowMillis, maxRecordBytes, maxBatchBytes, type, 0L);
    }

    /**
     * As {@link #encode(List, long, int, int)}, for a batch of the given type written by transaction
     * {@code producerId} (0 for none), which recovery uses to apply a committed transaction exactly once.
     */
    public static byte[] encode(List<Entry> entries, long nowMillis, int maxRecordBytes, int maxBatchBytes,
                                byte type, long producerId) {
        byte[] bytes = new byte[encodedSize(entries, maxRecordBytes, maxBatchBytes)];
        write(ByteBuffer.wrap(bytes), entries, nowMillis, type, producerId);
        return bytes;
    }

    /**
     * The encoded size of {@code entries} as one batch.
     *
     * @throws RecordTooLargeException if one record exceeds {@code maxRecordBytes} or the batch {@code maxBatchBytes}
     */
    public static int encodedSize(List<Entry> entries, int maxRecordBytes, int maxBatchBytes) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("a batch needs at least one entry");
        }
        long total = BatchDescriptor.HEADER_LENGTH;
        for (int i = 0; i < entries.size(); i++) {
            int size = recordSize(entries.get(i));
            if (size > maxRecordBytes) {
                throw new RecordTooLargeException("record " + i + " of the batch is " + size
                        + " bytes encoded, over the maximum record size of " + maxRecordBytes + " bytes");
            }
            total += size;
        }
        if (total > maxBatchBytes) {
            throw new RecordTooLargeException("batch of " + entries.size() + " records is " + total
                    + " bytes encoded, over the maximum batch size of " + maxBatchBytes + " bytes");
        }
        return (int) total;
    }

    /**
     * Encodes {@code entries} (a data batch with consecutive offsets) into {@code target} from its position, which
     * it advances by {@link #encodedSize}; entries without a timestamp get {@code nowMillis}. One pass over the
     * entries: a caller sizes its buffer with {@link #encodedSize} first, and the size is not worked out again.
     */
    public static void encodeInto(ByteBuffer target, List<Entry> entries, long nowMillis) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("a batch needs at least one entry");
        }
        int start = target.position();
        ByteBuffer batch = target.slice();
        try {
            if (batch.remaining() < BatchDescriptor.HEADER_LENGTH) {
                throw new java.nio.BufferOverflowException();
            }
            write(batch, entries, nowMillis, BatchDescriptor.TYPE_DATA, 0L);
        } catch (java.nio.BufferOverflowException | IndexOutOfBoundsException e) {
            // Only now is the size worth working out: for the message.
            throw new IllegalArgumentException("the batch takes " + encodedSize(entries, Integer.MAX_VALUE - 64,
                    Integer.MAX_VALUE - 64) + " bytes, the buffer has " + target.remaining(), e);
        }
        target.position(start + batch.position());
    }

    /** Writes the batch into {@code batch} from index 0, leaving its position at the batch's end. */
    private static void write(ByteBuffer batch, List<Entry> entries, long nowMillis, byte type, long producerId) {
        ByteBuffer buf = batch.order(ByteOrder.LITTLE_ENDIAN);
        buf.position(BatchDescriptor.HEADER_LENGTH);
        long maxTimestamp = Long.MIN_VALUE;
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            long ts = e.timestamp() == Entry.NO_TIMESTAMP ? nowMillis : e.timestamp();
            maxTimestamp = Math.max(maxTimestamp, ts);
            writeRecord(buf, i, ts, e.key(), e.payload(), e.headers());
        }
        writeHeader(buf, entries.size() - 1, maxTimestamp, entries.size(), type, producerId);
    }

    /**
     * Encodes already-stored records keeping their offsets (for compaction); {@code offsets[i]} belongs to
     * record i and must be increasing and at or above {@code baseOffset}.
     */
    public static byte[] encodeWithOffsets(long baseOffset, long[] offsets, long[] timestamps, byte[][] keys,
                                           byte[][] values, Headers[] headers, int count) {
        long total = BatchDescriptor.HEADER_LENGTH;
        for (int i = 0; i < count; i++) {
            total += recordSize(keys[i], values[i], headers[i]);
        }
        if (total > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("batch too large: " + total);
        }
        byte[] bytes = new byte[(int) total];
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        buf.position(BatchDescriptor.HEADER_LENGTH);
        long maxTimestamp = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            maxTimestamp = Math.max(maxTimestamp, timestamps[i]);
            writeRecord(buf, Math.toIntExact(offsets[i] - baseOffset), timestamps[i], keys[i], values[i], headers[i]);
        }
        writeHeader(buf, Math.toIntExact(offsets[count - 1] - baseOffset), maxTimestamp, count,
                BatchDescriptor.TYPE_DATA, 0L);
        BatchDescriptor.putBaseOffset(bytes, baseOffset);
        return bytes;
    }

    /** Encoded size of one entry as a record, header included. */
    public static int recordSize(Entry e) {
        return recordSize(e.key(), e.payload(), e.headers());
    }

    private static int recordSize(byte[] key, byte[] value, Headers headers) {
        long size = RecordDescriptor.HEADER_LENGTH + (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        for (Headers.Header h : headers.asList()) {
            size += RecordDescriptor.HEADER_ENTRY_OVERHEAD + utf8Length(h.name())
                    + (h.value() == null ? 0 : h.value().length);
        }
        return size > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) size;
    }

    private static void writeRecord(ByteBuffer buf, int offsetDelta, long timestamp, byte[] key, byte[] value,
                                    Headers headers) {
        int start = buf.position();
        buf.position(start + 4);
        buf.putInt(offsetDelta);
        buf.putLong(timestamp);
        buf.putInt(key == null ? -1 : key.length);
        buf.putInt(value == null ? -1 : value.length);
        buf.putInt(headers.size());
        if (key != null) {
            buf.put(key);
        }
        if (value != null) {
            buf.put(value);
        }
        for (Headers.Header h : headers.asList()) {
            byte[] name = h.name().getBytes(StandardCharsets.UTF_8);
            if (name.length > RecordDescriptor.MAX_HEADER_NAME_BYTES) {
                throw new IllegalArgumentException("header name longer than " + RecordDescriptor.MAX_HEADER_NAME_BYTES
                        + " bytes");
            }
            buf.putShort((short) name.length);
            buf.put(name);
            byte[] v = h.value();
            buf.putInt(v == null ? -1 : v.length);
            if (v != null) {
                buf.put(v);
            }
        }
        buf.putInt(start, buf.position() - start - 4);
    }

    /** Fills in the header of the batch {@code buf} holds from index 0 to its position. */
    private static void writeHeader(ByteBuffer buf, int lastOffsetDelta, long maxTimestamp, int count,
                                    byte type, long producerId) {
        int end = buf.position();
        buf.putInt(BatchDescriptor.LENGTH_OFFSET, end - BatchDescriptor.LOG_OVERHEAD);
        buf.put(BatchDescriptor.VERSION_OFFSET, BatchDescriptor.VERSION);
        buf.put(BatchDescriptor.TYPE_OFFSET, type);
        buf.putShort(BatchDescriptor.ATTRIBUTES_OFFSET, (short) 0);
        buf.putInt(BatchDescriptor.LAST_OFFSET_DELTA_OFFSET, lastOffsetDelta);
        buf.putLong(BatchDescriptor.MAX_TIMESTAMP_OFFSET, maxTimestamp);
        buf.putLong(BatchDescriptor.PRODUCER_ID_OFFSET, producerId);
        buf.putInt(BatchDescriptor.RECORD_COUNT_OFFSET, count);
        CRC32C crc = new CRC32C();
        crc.update(buf.slice(BatchDescriptor.CRC_START, end - BatchDescriptor.CRC_START));
        buf.putInt(BatchDescriptor.CRC_OFFSET, (int) crc.getValue());
    }

    private static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
