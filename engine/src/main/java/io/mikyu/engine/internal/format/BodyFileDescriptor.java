package io.mikyu.engine.internal.format;

/**
 * The layout of a body file: a large message body stored beside the queues, in checksummed chunks.
 *
 * <pre>
 *   FileHeader BODY (16 bytes: MIKYUBDY, version 1)
 *   chunk*     length i32 (1 .. MAX_CHUNK) | crc32c i32 (of the bytes) | bytes
 *   trailer    -1 i32 | total length i64 | chunk count i32 | crc32c i32 (of the 16 bytes before it)
 * </pre>
 *
 * Little-endian. The trailer makes a file cut at a chunk boundary damage rather than a shorter body.
 */
public final class BodyFileDescriptor {

    /** Bytes before a chunk's data: its length and its CRC32C. */
    public static final int CHUNK_HEADER = 8;
    /** The trailer's marker where a chunk's length would be. */
    public static final int TRAILER_MARK = -1;
    /** Marker, total length, chunk count, CRC32C. */
    public static final int TRAILER = 4 + 8 + 4 + 4;
    /** Largest chunk a writer may write and a reader accepts. */
    public static final int MAX_CHUNK = 1 << 20;
    /** What writers use unless told otherwise. */
    public static final int DEFAULT_CHUNK = 256 * 1024;

    private BodyFileDescriptor() {
    }
}
