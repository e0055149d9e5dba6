package io.mikyu.engine.internal.format;

import io.mikyu.engine.RecordTooLargeException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Checks a data batch encoded somewhere else (a client of a broker) before the engine appends it as it is: the
 * writer only patches its base offset, so every reader afterwards trusts what is checked here. The rules are the
 * encoder's: a whole batch of the current version and type {@link BatchDescriptor#TYPE_DATA}, no transaction,
 * records numbered 0..n-1 that exactly fill it, every field inside its record, the checksum right, and the sizes
 * within the store's limits.
 */
public final class BatchValidator {

    private BatchValidator() {
    }

    /**
     * Returns the record count of {@code batch}.
     *
     * @throws IllegalArgumentException   if the batch is malformed, saying where
     * @throws RecordTooLargeException    if a record or the batch exceeds the limits
     */
    public static int validate(byte[] batch, int maxRecordBytes, int maxBatchBytes) {
        if (batch.length < BatchDescriptor.HEADER_LENGTH) {
            throw malformed("is " + batch.length + " bytes, shorter than a batch header ("
                    + BatchDescriptor.HEADER_LENGTH + ")");
        }
        if (batch.length > maxBatchBytes) {
            throw new RecordTooLargeException("batch of " + batch.length + " bytes is over the maximum batch size of "
                    + maxBatchBytes + " bytes");
        }
        ByteBuffer buf = ByteBuffer.wrap(batch).order(ByteOrder.LITTLE_ENDIAN);
        int length = BatchDescriptor.length(buf, 0);
        if ((long) length + BatchDescriptor.LOG_OVERHEAD != batch.length) {
            throw malformed("declares " + length + " bytes after its length field but carries "
                    + (batch.length - BatchDescriptor.LOG_OVERHEAD));
        }
        if (BatchDescriptor.version(buf, 0) != BatchDescriptor.VERSION) {
            throw malformed("has version " + BatchDescriptor.version(buf, 0) + ", not " + BatchDescriptor.VERSION);
        }
        if (BatchDescriptor.type(buf, 0) != BatchDescriptor.TYPE_DATA) {
            throw malformed("has type " + BatchDescriptor.type(buf, 0) + ", not a data batch");
        }
        if (buf.getShort(BatchDescriptor.ATTRIBUTES_OFFSET) != 0 || BatchDescriptor.producerId(buf, 0) != 0) {
            throw malformed("has attributes or a transaction id set");
        }
        if (BatchReader.crcOf(buf, 0, length) != BatchDescriptor.crc(buf, 0)) {
            throw malformed("fails its CRC32C check");
        }
        int count = BatchDescriptor.recordCount(buf, 0);
        if (count < 1 || BatchDescriptor.lastOffsetDelta(buf, 0) != count - 1) {
            throw malformed("declares " + count + " records and last offset delta "
                    + BatchDescriptor.lastOffsetDelta(buf, 0));
        }
        long maxTimestamp = Long.MIN_VALUE;
        int p = BatchDescriptor.HEADER_LENGTH;
        for (int i = 0; i < count; i++) {
            if ((long) p + RecordDescriptor.HEADER_LENGTH > batch.length) {
                throw malformed("ends inside the header of record " + i);
            }
            int recLength = buf.getInt(p + RecordDescriptor.LENGTH_OFFSET);
            long recEnd = (long) p + 4 + recLength;
            if (recLength < RecordDescriptor.HEADER_LENGTH - 4 || recEnd > batch.length) {
                throw malformed("record " + i + " declares " + recLength + " bytes, past the end of the batch");
            }
            if (recLength + 4 > maxRecordBytes) {
                throw new RecordTooLargeException("record " + i + " of the batch is " + (recLength + 4)
                        + " bytes encoded, over the maximum record size of " + maxRecordBytes + " bytes");
            }
            if (buf.getInt(p + RecordDescriptor.OFFSET_DELTA_OFFSET) != i) {
                throw malformed("record " + i + " has offset delta " + buf.getInt(p + RecordDescriptor.OFFSET_DELTA_OFFSET));
            }
            maxTimestamp = Math.max(maxTimestamp, buf.getLong(p + RecordDescriptor.TIMESTAMP_OFFSET));
            checkFields(buf, p, (int) recEnd, i);
            p = (int) recEnd;
        }
        if (p != batch.length) {
            throw malformed("has " + (batch.length - p) + " bytes after its last record");
        }
        if (BatchDescriptor.maxTimestamp(buf, 0) != maxTimestamp) {
            throw malformed("declares max timestamp " + BatchDescriptor.maxTimestamp(buf, 0) + " but its records' is "
                    + maxTimestamp);
        }
        return count;
    }

    /** Key, value and headers of the record at {@code p} lie inside it and fill it exactly. */
    private static void checkFields(ByteBuffer buf, int p, int recEnd, int index) {
        int keyLength = buf.getInt(p + RecordDescriptor.KEY_LENGTH_OFFSET);
        int valueLength = buf.getInt(p + RecordDescriptor.VALUE_LENGTH_OFFSET);
        int headerCount = buf.getInt(p + RecordDescriptor.HEADER_COUNT_OFFSET);
        long q = (long) p + RecordDescriptor.HEADER_LENGTH;
        if (keyLength < -1 || valueLength < -1 || headerCount < 0
                || q + Math.max(keyLength, 0) + Math.max(valueLength, 0) > recEnd) {
            throw malformed("record " + index + " has key, value or header counts that do not fit it");
        }
        q += Math.max(keyLength, 0) + Math.max(valueLength, 0);
        for (int h = 0; h < headerCount; h++) {
            if (q + RecordDescriptor.HEADER_ENTRY_OVERHEAD > recEnd) {
                throw malformed("record " + index + " ends inside header " + h);
            }
            int nameLength = buf.getShort((int) q) & 0xFFFF;
            if (nameLength > RecordDescriptor.MAX_HEADER_NAME_BYTES) {
                throw malformed("record " + index + " has a header name of " + nameLength + " bytes");
            }
            q += 2 + nameLength;
            if (q + 4 > recEnd) {
                throw malformed("record " + index + " ends inside header " + h);
            }
            int valueLen = buf.getInt((int) q);
            q += 4;
            if (valueLen < -1 || q + Math.max(valueLen, 0) > recEnd) {
                throw malformed("record " + index + " has header " + h + " running past the record");
            }
            q += Math.max(valueLen, 0);
        }
        if (q != recEnd) {
            throw malformed("record " + index + " has " + (recEnd - q) + " bytes after its last field");
        }
    }

    private static IllegalArgumentException malformed(String what) {
        return new IllegalArgumentException("malformed encoded batch: it " + what);
    }
}
