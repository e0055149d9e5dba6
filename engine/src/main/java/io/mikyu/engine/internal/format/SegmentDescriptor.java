package io.mikyu.engine.internal.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Layout of a segment file ({@code <20-digit base offset>.seg}), little-endian.
 *
 * <pre>
 *   0                16                 24                 32
 *   | FileHeader     | baseOffset int64 | createdMillis i64 |  batches (BatchDescriptor) ... | zeros (preallocated)
 * </pre>
 *
 * <p>Batches follow back to back. A preallocated tail of zeros marks where writing stopped; recovery reads until
 * zeros, the end of the file, or a batch that fails its checks.
 */
public final class SegmentDescriptor {

    public static final int BASE_OFFSET_OFFSET = 16;
    public static final int CREATED_OFFSET = 24;
    public static final int HEADER_LENGTH = 32;

    public static final String SUFFIX = ".seg";
    public static final String INDEX_SUFFIX = ".idx";

    private SegmentDescriptor() {
    }

    /** The header of a new segment file starting at {@code baseOffset}, ready to write at position 0. */
    public static ByteBuffer header(long baseOffset, long createdMillis) {
        ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        FileHeader.SEGMENT.write(header);
        header.putLong(BASE_OFFSET_OFFSET, baseOffset);
        header.putLong(CREATED_OFFSET, createdMillis);
        header.position(0);
        return header;
    }

    /** The file name of the segment starting at {@code baseOffset}: zero-padded so names sort by offset. */
    public static String fileName(long baseOffset) {
        return String.format("%020d%s", baseOffset, SUFFIX);
    }

    public static String indexFileName(long baseOffset) {
        return String.format("%020d%s", baseOffset, INDEX_SUFFIX);
    }

    /** The base offset in a segment or index file name, or -1 if the name is not one. */
    public static long parseBaseOffset(String fileName) {
        int dot = fileName.indexOf('.');
        if (dot != 20) {
            return -1;
        }
        try {
            return Long.parseLong(fileName.substring(0, 20));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
