package io.mikyu.engine.internal.format;

/**
 * Layout of a segment's index file ({@code .idx}), little-endian: a sparse offset index and time index in one.
 * An entry is added for the first batch written after every {@code indexIntervalBytes} of log.
 *
 * <pre>
 *   0                16             20              24               32
 *   | FileHeader     | flags int32  | entries int32 | baseOffset i64 |
 *   32                   40                 48                   56          60        64
 *   | segmentBytes i64   | nextOffset i64   | maxTimestamp i64   | crc int32 | reserved |
 *   64: entries, 16 bytes each
 *   | relativeOffset int32 | position int32 | runningMaxTimestamp int64 |
 * </pre>
 *
 * <p>{@code relativeOffset} is the batch's base offset minus the segment's; {@code position} its byte position in
 * the segment; {@code runningMaxTimestamp} the largest timestamp of any record up to and including that batch,
 * which makes "first record at or after time T" a binary search even when producers' clocks disagree.
 * The crc covers bytes 16..56 and all entries. The index is derived data: written whole when a segment is sealed
 * or the store closes cleanly, rebuilt from the segment whenever it does not match.
 */
public final class IndexDescriptor {

    /** The index describes the whole segment ({@code segmentBytes} of it) and may be trusted if its crc matches. */
    public static final int FLAG_COMPLETE = 1;

    public static final int FLAGS_OFFSET = 16;
    public static final int ENTRY_COUNT_OFFSET = 20;
    public static final int BASE_OFFSET_OFFSET = 24;
    public static final int SEGMENT_BYTES_OFFSET = 32;
    public static final int NEXT_OFFSET_OFFSET = 40;
    public static final int MAX_TIMESTAMP_OFFSET = 48;
    public static final int CRC_OFFSET = 56;
    public static final int HEADER_LENGTH = 64;

    public static final int ENTRY_LENGTH = 16;
    public static final int ENTRY_RELATIVE_OFFSET = 0;
    public static final int ENTRY_POSITION = 4;
    public static final int ENTRY_MAX_TIMESTAMP = 8;

    private IndexDescriptor() {
    }

    public static int entryOffset(int i) {
        return HEADER_LENGTH + i * ENTRY_LENGTH;
    }
}
