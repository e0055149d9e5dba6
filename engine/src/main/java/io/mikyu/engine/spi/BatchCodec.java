package io.mikyu.engine.spi;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.EncodedBatch;
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

/**
 * The engine's batch layout for transports: encodes entries into an {@link EncodedBatch} (or straight into a
 * frame) and reads the records of a batch received or polled, with the one batch format code of the segment files.
 */
public final class BatchCodec {

    /** Encoding limits of the sending side: the appending store checks its own. */
    private static final int NO_LIMIT = Integer.MAX_VALUE - 64;

    private BatchCodec() {
    }

    /** Encodes {@code entries}; those without a timestamp get the current time. */
    public static EncodedBatch encode(List<Entry> entries) {
        return EncodedBatch.wrap(BatchEncoder.encode(entries, System.currentTimeMillis(), NO_LIMIT, NO_LIMIT));
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

    /** The record count the header declares (checked when appended). */
    public static int recordCount(EncodedBatch batch) {
        byte[] bytes = batch.bytes();
        return bytes.length < BatchDescriptor.HEADER_LENGTH ? 0 : BatchDescriptor.recordCount(bytes);
    }

    /**
     * Shows the records of the stored batch framed by {@code batch}'s position and limit (as
     * {@link io.mikyu.engine.EncodedBatchHandler#onBatch} gets it, or as received from a broker) whose offset is at least
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
