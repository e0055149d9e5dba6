package io.mikyu.engine.internal.format;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.Headers;
import io.mikyu.engine.Record;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Validates batches and decodes their records from a little-endian buffer (a mapped segment, a read buffer or
 * a cached batch). Structural checks throw {@link CorruptionException} naming the file and byte position.
 */
public final class BatchReader {

    /** Result of {@link #check}: the batch is whole and its checksum matches. */
    public static final int VALID = 0;
    /** Fewer bytes remain than the header or the declared length needs: an incomplete write. */
    public static final int INCOMPLETE = 1;
    /** The header is implausible or the checksum does not match. */
    public static final int DAMAGED = 2;
    /** Only zeros here: the end of written data in a preallocated file. */
    public static final int ZEROS = 3;

    private BatchReader() {
    }

    /**
     * Checks the batch at {@code pos}, whose bytes end at {@code limit}.
     * Returns {@link #VALID}, {@link #INCOMPLETE}, {@link #DAMAGED} or {@link #ZEROS}.
     */
    public static int check(ByteBuffer buf, int pos, int limit, int maxBatchBytes, boolean verifyCrc) {
        if (limit - pos < BatchDescriptor.HEADER_LENGTH) {
            return allZero(buf, pos, limit) ? ZEROS : INCOMPLETE;
        }
        int length = BatchDescriptor.length(buf, pos);
        if (length == 0 && BatchDescriptor.baseOffset(buf, pos) == 0 && BatchDescriptor.crc(buf, pos) == 0) {
            return ZEROS;
        }
        if (length < BatchDescriptor.HEADER_LENGTH - BatchDescriptor.LOG_OVERHEAD
                || length > maxBatchBytes || BatchDescriptor.version(buf, pos) != BatchDescriptor.VERSION) {
            return DAMAGED;
        }
        if ((long) pos + BatchDescriptor.LOG_OVERHEAD + length > limit) {
            return INCOMPLETE;
        }
        if (verifyCrc && crcOf(buf, pos, length) != BatchDescriptor.crc(buf, pos)) {
            return DAMAGED;
        }
        return VALID;
    }

    static int crcOf(ByteBuffer buf, int pos, int length) {
        CRC32C crc = new CRC32C();
        ByteBuffer slice = buf.duplicate();
        slice.limit(pos + BatchDescriptor.LOG_OVERHEAD + length).position(pos + BatchDescriptor.CRC_START);
        crc.update(slice);
        return (int) crc.getValue();
    }

    private static boolean allZero(ByteBuffer buf, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** The byte limit of one read call, shared across the batches it decodes. */
    public static final class ReadBudget {
        private final long maxBytes;
        private long used;
        private boolean full;

        public ReadBudget(long maxBytes) {
            this.maxBytes = maxBytes;
        }

        /** A record of {@code size} bytes fits, or it is the first of the read (which always fits). */
        boolean admits(int size, boolean first) {
            if (first || used + size <= maxBytes) {
                return true;
            }
            full = true; // a record was turned away: the read is over
            return false;
        }

        void take(int size) {
            used += size;
        }

        /** No further record fits: the limit was reached or a record was turned away. */
        public boolean exhausted() {
            return full || used >= maxBytes;
        }
    }

    /**
     * Appends to {@code out} the records of the (already checked) batch at {@code pos} whose offset is at least
     * {@code minOffset}, while {@code out} holds fewer than {@code maxRecords} and the budget admits them.
     * Returns the offset to continue from: one past the batch if all its records were taken, else the offset of
     * the first record left.
     */
    public static long decode(ByteBuffer buf, int pos, long minOffset, List<Record> out, int maxRecords,
                              ReadBudget budget, Path file, long filePositionBase) {
        long base = BatchDescriptor.baseOffset(buf, pos);
        int count = BatchDescriptor.recordCount(buf, pos);
        int end = pos + BatchDescriptor.LOG_OVERHEAD + BatchDescriptor.length(buf, pos);
        int p = pos + BatchDescriptor.HEADER_LENGTH;
        for (int i = 0; i < count; i++) {
            if (p + RecordDescriptor.HEADER_LENGTH > end) {
                throw corrupt(file, filePositionBase + p, "record header runs past its batch");
            }
            int recLength = buf.getInt(p + RecordDescriptor.LENGTH_OFFSET);
            int recEnd = p + 4 + recLength;
            if (recLength < RecordDescriptor.HEADER_LENGTH - 4 || recEnd > end || recEnd < p) {
                throw corrupt(file, filePositionBase + p, "record length " + recLength + " runs past its batch");
            }
            long offset = base + buf.getInt(p + RecordDescriptor.OFFSET_DELTA_OFFSET);
            if (offset >= minOffset) {
                if (out.size() >= maxRecords) {
                    return offset;
                }
                Record r = decodeRecord(buf, p, recEnd, offset, file, filePositionBase);
                int size = r.size();
                if (!budget.admits(size, out.isEmpty())) {
                    return offset;
                }
                budget.take(size);
                out.add(r);
            }
            p = recEnd;
        }
        return Math.max(minOffset, base + BatchDescriptor.lastOffsetDelta(buf, pos) + 1);
    }

    private static Record decodeRecord(ByteBuffer buf, int p, int recEnd, long offset, Path file, long base) {
        long timestamp = buf.getLong(p + RecordDescriptor.TIMESTAMP_OFFSET);
        int keyLength = buf.getInt(p + RecordDescriptor.KEY_LENGTH_OFFSET);
        int valueLength = buf.getInt(p + RecordDescriptor.VALUE_LENGTH_OFFSET);
        int headerCount = buf.getInt(p + RecordDescriptor.HEADER_COUNT_OFFSET);
        int q = p + RecordDescriptor.HEADER_LENGTH;
        if (keyLength < -1 || valueLength < -1 || headerCount < 0
                || (long) q + Math.max(keyLength, 0) + Math.max(valueLength, 0) > recEnd) {
            throw corrupt(file, base + p, "record fields run past the record");
        }
        byte[] key = null;
        if (keyLength >= 0) {
            key = new byte[keyLength];
            buf.get(q, key);
            q += keyLength;
        }
        byte[] value = null;
        if (valueLength >= 0) {
            value = new byte[valueLength];
            buf.get(q, value);
            q += valueLength;
        }
        Headers headers = Headers.EMPTY;
        if (headerCount > 0) {
            Headers.Builder hb = Headers.builder();
            for (int h = 0; h < headerCount; h++) {
                if (q + RecordDescriptor.HEADER_ENTRY_OVERHEAD > recEnd) {
                    throw corrupt(file, base + q, "header runs past the record");
                }
                int nameLength = buf.getShort(q) & 0xFFFF;
                q += 2;
                if (q + nameLength + 4 > recEnd) {
                    throw corrupt(file, base + q, "header name runs past the record");
                }
                byte[] name = new byte[nameLength];
                buf.get(q, name);
                q += nameLength;
                int vl = buf.getInt(q);
                q += 4;
                if (vl < -1 || q + Math.max(vl, 0) > recEnd) {
                    throw corrupt(file, base + q, "header value runs past the record");
                }
                byte[] v = null;
                if (vl >= 0) {
                    v = new byte[vl];
                    buf.get(q, v);
                    q += vl;
                }
                hb.add(new String(name, StandardCharsets.UTF_8), v);
            }
            headers = hb.build();
        }
        return new Record(offset, timestamp, key, headers, value);
    }

    private static CorruptionException corrupt(Path file, long position, String what) {
        return new CorruptionException(file, position, what);
    }
}
