package io.mikyu.engine.internal.write;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Each producer thread's direct buffer for staging its batch before the hand-off. The single writer thread is
 * the throughput limit of appending (it alone moves every byte into the page cache), so the producer, on its own
 * core, copies its batch into direct memory and the writer passes that to the kernel without a copy of its own.
 * Reuse is safe because a producer waits for its request to complete before it appends again.
 */
public final class StagingBuffer {

    /** Larger batches go through the writer's own buffer instead of pinning this much per thread. */
    public static final int MAX_STAGED_BYTES = 1 << 20;

    private static final ThreadLocal<ByteBuffer> BUFFERS = new ThreadLocal<>();

    private StagingBuffer() {
    }

    /** A direct copy of {@code batch} in this thread's buffer, or {@code null} if the batch is too large. */
    public static ByteBuffer stage(byte[] batch) {
        if (batch.length > MAX_STAGED_BYTES) {
            return null;
        }
        ByteBuffer buf = BUFFERS.get();
        if (buf == null || buf.capacity() < batch.length) {
            int capacity = Math.min(MAX_STAGED_BYTES, Math.max(64 * 1024, Integer.highestOneBit(batch.length) << 1));
            buf = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
            BUFFERS.set(buf);
        }
        buf.clear();
        buf.put(batch).flip();
        return buf;
    }
}
