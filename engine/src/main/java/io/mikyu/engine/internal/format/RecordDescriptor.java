package io.mikyu.engine.internal.format;

/**
 * Layout of one record inside a batch (little-endian), following the batch header or the previous record.
 *
 * <pre>
 *   0               4                   8                         16
 *   +---------------+-------------------+-------------------------+
 *   | length int32  | offsetDelta int32 | timestamp int64         |   length = bytes after the length field
 *   +---------------+-------------------+-----------------+-------+
 *   | keyLength i32 | valueLength i32   | headerCount i32 |           -1 lengths mean null (value null = tombstone)
 *   +---------------+-------------------+-----------------+
 *   | key bytes | value bytes | headers: { nameLength i16, name UTF-8, valueLength i32, value }*
 *   +-----------+-------------+------------------------------------
 * </pre>
 */
public final class RecordDescriptor {

    public static final int LENGTH_OFFSET = 0;
    public static final int OFFSET_DELTA_OFFSET = 4;
    public static final int TIMESTAMP_OFFSET = 8;
    public static final int KEY_LENGTH_OFFSET = 16;
    public static final int VALUE_LENGTH_OFFSET = 20;
    public static final int HEADER_COUNT_OFFSET = 24;
    public static final int HEADER_LENGTH = 28;

    /** Per header: name length (int16) and value length (int32). */
    public static final int HEADER_ENTRY_OVERHEAD = 6;

    /** The longest header name in UTF-8 bytes. */
    public static final int MAX_HEADER_NAME_BYTES = Short.MAX_VALUE;

    private RecordDescriptor() {
    }
}
