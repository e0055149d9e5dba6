package io.mikyu.engine.internal.log;

import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchReader;
import io.mikyu.engine.internal.format.SegmentDescriptor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Reads a segment file batch by batch, checking every checksum, to rebuild its index and find where valid data
 * ends. Used at open for the active segment after an unclean shutdown and for any segment whose index does not
 * match; its cost is bounded by one segment, not by the size of the store.
 */
final class SegmentScanner {

    /** How the scan ended. */
    enum End {
        /** End of file or preallocated zeros: all data valid. */
        CLEAN,
        /** An incomplete or damaged batch with nothing but zeros after it: an interrupted write. */
        TORN_TAIL,
        /** A damaged batch with data after it. */
        CORRUPTION
    }

    record Result(SegmentIndex index, long validBytes, long nextOffset, End end, long problemPosition,
                  String problem) {
    }

    private SegmentScanner() {
    }

    /**
     * Scans the batches of a segment whose header was already checked.
     *
     * @param strictContinuity each batch must start exactly where the previous ended (false for compacted logs,
     *                         whose offsets have gaps, where batches need only increase)
     */
    static Result scan(FileChannel channel, long baseOffset, int indexInterval, int maxBatchBytes,
                       boolean strictContinuity) throws IOException {
        long fileSize = channel.size();
        if (fileSize > Integer.MAX_VALUE) {
            throw new IOException("segment larger than 2 GiB: " + fileSize);
        }
        ByteBuffer buf = fileSize == 0 ? ByteBuffer.allocate(0)
                : channel.map(FileChannel.MapMode.READ_ONLY, 0, fileSize).order(ByteOrder.LITTLE_ENDIAN);
        int limit = (int) fileSize;
        SegmentIndex index = new SegmentIndex(baseOffset);
        int pos = SegmentDescriptor.HEADER_LENGTH;
        long expected = baseOffset;
        long sinceEntry = Long.MAX_VALUE / 2;
        while (pos < limit) {
            int status = BatchReader.check(buf, pos, limit, maxBatchBytes, true);
            if (status == BatchReader.ZEROS) {
                if (allZero(buf, pos, limit)) {
                    return new Result(index, pos, expected, End.CLEAN, -1, null);
                }
                return damaged(buf, index, pos, limit, expected, "zeroed batch header followed by data");
            }
            if (status == BatchReader.INCOMPLETE) {
                return new Result(index, pos, expected, End.TORN_TAIL, pos,
                        "incomplete batch: " + (limit - pos) + " bytes left");
            }
            if (status == BatchReader.DAMAGED) {
                return damaged(buf, index, pos, limit, expected, "batch fails its checksum or header check");
            }
            long base = BatchDescriptor.baseOffset(buf, pos);
            if (base < expected || (strictContinuity && base != expected)) {
                return damaged(buf, index, pos, limit, expected,
                        "batch base offset " + base + " where " + expected + " was expected");
            }
            int total = BatchDescriptor.totalSize(BatchDescriptor.length(buf, pos));
            long maxTs = BatchDescriptor.maxTimestamp(buf, pos);
            if (sinceEntry >= indexInterval) {
                index.add(base, pos, maxTs);
                sinceEntry = 0;
            } else {
                index.observeTimestamp(maxTs);
            }
            sinceEntry += total;
            expected = base + BatchDescriptor.lastOffsetDelta(buf, pos) + 1;
            pos += total;
        }
        return new Result(index, pos, expected, End.CLEAN, -1, null);
    }

    /**
     * A bad batch at {@code pos}. Corruption if a valid batch (checksum passing, at or after the expected offset)
     * lies anywhere after it: data was written past the damage. Otherwise the bytes from {@code pos} on are what
     * an interrupted write left behind, a torn tail.
     */
    private static Result damaged(ByteBuffer buf, SegmentIndex index, int pos, int limit, long expected,
                                  String what) {
        boolean torn = !validBatchAfter(buf, pos + 1, limit, expected);
        return new Result(index, pos, expected, torn ? End.TORN_TAIL : End.CORRUPTION, pos, what);
    }

    /**
     * Searches byte by byte for a batch that passes its checks. Only on the damage path; cheap filters (version
     * byte, plausible base offset and length) run before any checksum.
     */
    private static boolean validBatchAfter(ByteBuffer buf, int from, int limit, long expected) {
        for (int i = from; i + BatchDescriptor.HEADER_LENGTH <= limit; i++) {
            if (buf.get(i + BatchDescriptor.VERSION_OFFSET) != BatchDescriptor.VERSION) {
                continue;
            }
            long base = BatchDescriptor.baseOffset(buf, i);
            if (base < expected || base - expected > Integer.MAX_VALUE) {
                continue;
            }
            int length = BatchDescriptor.length(buf, i);
            if (length < BatchDescriptor.HEADER_LENGTH - BatchDescriptor.LOG_OVERHEAD
                    || (long) i + BatchDescriptor.LOG_OVERHEAD + length > limit) {
                continue;
            }
            if (BatchReader.check(buf, i, limit, Integer.MAX_VALUE, true) == BatchReader.VALID) {
                return true;
            }
        }
        return false;
    }

    static boolean allZero(ByteBuffer buf, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            if (buf.getLong(i) != 0) {
                return false;
            }
        }
        for (; i < to; i++) {
            if (buf.get(i) != 0) {
                return false;
            }
        }
        return true;
    }
}
