package io.mikyu.engine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Records already encoded in the engine's own batch layout, for transports: a remote client encodes a batch once,
 * the broker checks it and hands the same bytes to the writer ({@link LogQueue#appendEncoded}),
 * instead of decoding it into entries and encoding them again. The layout is the segment files' (see
 * {@code BatchDescriptor}); its base offset is assigned when the batch is appended.
 *
 * <p>An encoded batch is handed over, not shared: appending it writes its assigned offset into its bytes, so it is
 * appended once and its bytes are not used afterwards. Encoding and reading the layout is
 * {@code io.mikyu.engine.spi.BatchCodec}'s.
 */
public final class EncodedBatch {

    private final byte[] bytes;
    private final ByteBuffer direct;

    private EncodedBatch(byte[] bytes, ByteBuffer direct) {
        this.bytes = bytes;
        this.direct = direct;
    }

    /** Wraps bytes received from elsewhere; they are checked, in full, when appended. */
    public static EncodedBatch wrap(byte[] bytes) {
        return new EncodedBatch(Objects.requireNonNull(bytes, "bytes"), null);
    }

    /**
     * As {@link #wrap(byte[])}, with a direct buffer holding the same bytes (from its position to its limit), such
     * as the received frame they were copied from: the writer hands that to the kernel instead of copying
     * {@code bytes} into direct memory itself. The caller keeps it alive and unchanged until the append completes.
     */
    public static EncodedBatch wrap(byte[] bytes, ByteBuffer sameBytesDirect) {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(sameBytesDirect, "sameBytesDirect");
        if (!sameBytesDirect.isDirect() || sameBytesDirect.remaining() != bytes.length) {
            throw new IllegalArgumentException("not a direct buffer of the batch's " + bytes.length + " bytes: "
                    + sameBytesDirect);
        }
        return new EncodedBatch(bytes, sameBytesDirect.slice().order(ByteOrder.LITTLE_ENDIAN));
    }

    /**
     * The direct copy given to {@link #wrap(byte[], ByteBuffer)}, from index 0 and little-endian, or {@code null}.
     * The append writes the assigned offset into it as into {@link #bytes()}.
     */
    public ByteBuffer directCopy() {
        return direct;
    }

    /** The encoded bytes (not a copy). */
    public byte[] bytes() {
        return bytes;
    }

    /** Size in bytes. */
    public int size() {
        return bytes.length;
    }
}
