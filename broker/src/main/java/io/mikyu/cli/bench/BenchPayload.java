package io.mikyu.cli.bench;

import java.nio.ByteBuffer;

/**
 * The payload of a bench record: which producer wrote it and its place in that producer's sequence, so that a
 * consumer can prove every record arrived once and in order. Zeros pad it to the message size.
 *
 * <pre>
 *  0          4                      12                 message size
 *  +----------+----------------------+------- ... ------+
 *  |  worker  |  sequence            |  zero padding    |
 *  |  int32   |  int64               |                  |
 *  +----------+----------------------+------- ... ------+
 *  big-endian
 * </pre>
 */
final class BenchPayload {

    static final int WORKER_OFFSET = 0;
    static final int SEQUENCE_OFFSET = 4;
    /** Smallest payload that holds the header. */
    static final int HEADER_BYTES = 12;

    private BenchPayload() {
    }

    /** A new array each time, as an application makes a new message: the allocation is part of what is measured. */
    static byte[] encode(int worker, long sequence, int size) {
        byte[] payload = new byte[size];
        ByteBuffer.wrap(payload).putInt(WORKER_OFFSET, worker).putLong(SEQUENCE_OFFSET, sequence);
        return payload;
    }

    static int worker(byte[] payload) {
        return ByteBuffer.wrap(payload).getInt(WORKER_OFFSET);
    }

    static long sequence(byte[] payload) {
        return ByteBuffer.wrap(payload).getLong(SEQUENCE_OFFSET);
    }

    /** From a big-endian view whose position is the payload's start (as {@code RecordView.payload()} gives). */
    static int worker(ByteBuffer payload) {
        return payload.getInt(payload.position() + WORKER_OFFSET);
    }

    static long sequence(ByteBuffer payload) {
        return payload.getLong(payload.position() + SEQUENCE_OFFSET);
    }
}
