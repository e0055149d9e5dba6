package io.mikyu.engine.spi;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.Entry;
import io.mikyu.engine.RecordHandler;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchEncoder;
import io.mikyu.engine.internal.format.BatchReader;
import io.mikyu.engine.internal.format.RecordCursor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

import java.util.List;
import java.util.Objects;

/**
 * Records already encoded in the engine's own batch layout, for transports: a remote client encodes a batch once,
 * the broker checks it and hands the same bytes to the writer ({@link io.mikyu.engine.LogQueue#appendEncoded}),
 * instead of decoding it into entries and encoding them again. The layout is the segment files' (see
 * {@code BatchDescriptor}); its base offset is assigned when the batch is appended.
 *
 * <p>An encoded batch is handed over, not shared: appending it writes its assigned offset into its bytes, so it is
 * appended once and its bytes are not used afterwards.
 */
public final class EncodedBatch {

    /** Encoding limits of the sending side: the appending store checks its own. */
    private static final int NO_LIMIT = Integer.MAX_VALUE - 64;

    private final byte[] bytes;
    private final ByteBuffer direct;

    private EncodedBatch(byte[] bytes, ByteBuffer direct) {
        this.bytes = bytes;
        this.direct = direct;
    }

    /** Encodes {@code entries}; those without a timestamp get the current time. */
    public static EncodedBatch encode(List<Entry> entries) {
        return new EncodedBatch(BatchEncoder.encode(entries, System.currentTimeMillis(), NO_LIMIT, NO_LIMIT), null);
    }

    /** The size {@link #encodeInto} writes for {@code entries}. */
    public static int encodedSize(List<Entry> entries) {
        return BatchEncoder.encodedSize(entries, NO_LIMIT, NO_LIMIT);
    }

    /**
     * Encodes {@code entries} into {@code target} from its position, which it advances by
     * {@link #encodedSize}: for a transport that writes the batch straight into its frame, sized with
     * {@link #encodedSize} first. Those without a timestamp get the current time.
     */
    public static void encodeInto(List<Entry> entries, ByteBuffer target) {
        BatchEncoder.encodeInto(target, entries, System.currentTimeMillis());
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

    /** The record count the header declares (checked when appended). */
    public int recordCount() {
        return bytes.length < BatchDescriptor.HEADER_LENGTH ? 0 : BatchDescriptor.recordCount(bytes);
    }

    /** Size in bytes. */
    public int size() {
        return bytes.length;
    }

    /**
     * Shows the records of the stored batch framed by {@code batch}'s position and limit (as
     * {@link EncodedBatchHandler#onBatch} gets it, or as received from a broker) whose offset is at least
     * {@code minOffset} to {@code handler} in place, at most {@code max}. The batch is checked first (header and
     * CRC32C; every record's bounds as it is read): {@link CorruptionException} naming {@code source} if it fails.
     * Returns the offset to continue from.
     */
    public static long forEachRecord(ByteBuffer batch, long minOffset, int max, RecordHandler handler, String source) {
        ByteBuffer buf = batch.order() == ByteOrder.LITTLE_ENDIAN ? batch : batch.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int pos = buf.position();
        Path where = Path.of(source);
        int status = BatchReader.check(buf, pos, buf.limit(), Integer.MAX_VALUE, true);
        if (status != BatchReader.VALID || BatchDescriptor.totalSize(BatchDescriptor.length(buf, pos))
                != buf.limit() - pos) {
            throw new CorruptionException(where, 0, status == BatchReader.DAMAGED ? "batch fails its checksum"
                    : "batch is incomplete");
        }
        return new RecordCursor().visit(buf, pos, minOffset, max, handler, where, -pos);
    }
}
