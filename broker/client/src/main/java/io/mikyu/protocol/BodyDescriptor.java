package io.mikyu.protocol;

/**
 * Large bodies on the wire (feature {@link Protocol#FEATURE_LARGE_BODIES}): a body is never one frame but a
 * sequence of chunks, each its own request, so the frames of the connection's other sessions pass between them.
 *
 * <pre>
 * BODY_OPEN    queue:string                              → upload:i32 id:string window:i32
 * BODY_CHUNK   upload:i32 offset:i64 bytes:bytes          → (empty, once the chunk is written)
 * BODY_PUBLISH upload:i32 length:i64                      → (empty, once the body is durable)
 * BODY_CLOSE   upload:i32                                 → (empty)
 * BODY_READ    queue:string id:string offset:i64 max:i32  → bytes:bytes (empty at the end)
 * </pre>
 *
 * An uploader keeps at most {@code window} chunks unanswered; the broker refuses more, so it holds at most that
 * many chunks of one upload in memory. Chunks carry their offset in the body, which must follow the previous one.
 */
public final class BodyDescriptor {

    /** The most bytes one chunk (or one read's answer) carries, whatever the frame limit allows. */
    public static final int MAX_CHUNK = 1 << 20;
    /** Chunks an uploader may have unanswered: what the broker offers in BODY_OPEN's answer. */
    public static final int WINDOW = 4;
    /** Room in a frame for the header and the fields around a chunk's bytes. */
    static final int OVERHEAD = FrameDescriptor.HEADER_BYTES + 64;

    private BodyDescriptor() {
    }

    /** The chunk size to use under a frame limit of {@code maxFrameBytes}. */
    public static int chunkBytes(int maxFrameBytes) {
        return Math.min(MAX_CHUNK, maxFrameBytes - OVERHEAD);
    }
}
