package io.mikyu.engine.internal.format;

/**
 * Layout of a queue's consumer-group offsets file ({@code offsets.log}): a {@link FileHeader} then entries,
 * little-endian. The file is a small log: the last entry of a group wins; it is rewritten whole (temp file,
 * fsync, atomic rename) when it holds many superseded entries.
 *
 * <pre>
 *   0              4             8                 16                  24              26
 *   | length int32 | crc32c i32  | offset int64    | timestamp int64   | nameLen int16 | name UTF-8 |
 * </pre>
 *
 * <p>{@code length} counts the bytes after the crc; the crc covers them. {@code offset} is the group's committed
 * next offset, {@link #NO_COMMIT} for a group created but never committed, {@link #DELETED} for a deleted group.
 */
public final class OffsetsDescriptor {

    public static final int LENGTH_OFFSET = 0;
    public static final int CRC_OFFSET = 4;
    public static final int OFFSET_OFFSET = 8;
    public static final int TIMESTAMP_OFFSET = 16;
    public static final int NAME_LENGTH_OFFSET = 24;
    public static final int NAME_OFFSET = 26;
    /** Bytes the length field counts besides the name. */
    public static final int FIXED_BODY = NAME_OFFSET - OFFSET_OFFSET;

    public static final long NO_COMMIT = -1;
    public static final long DELETED = -2;

    private OffsetsDescriptor() {
    }
}
