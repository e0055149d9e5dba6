package io.mikyu.engine;

import java.nio.ByteBuffer;

/**
 * Receives what {@link LogQueue#pollEncoded} reads: whole batches in the engine's layout, shown in
 * place, and, for a batch larger than the caller can take whole, its records one by one.
 */
public interface EncodedBatchHandler {

    /**
     * A whole stored batch: {@code batch}'s position and limit frame it (little-endian, read-only). Valid only
     * during the call; it may hold records before the offset asked for, which the receiver skips.
     */
    void onBatch(ByteBuffer batch);

    /** A record (at or after the offset asked for) of a batch larger than the call's {@code maxBatchBytes}. */
    void onRecord(RecordView record);
}
