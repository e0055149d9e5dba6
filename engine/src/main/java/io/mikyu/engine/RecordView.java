package io.mikyu.engine;

import java.nio.ByteBuffer;

/**
 * A stored record seen in place, without copying it: what {@link LogQueue#poll(long, int, java.time.Duration,
 * RecordHandler)} hands to its handler. Valid only during the handler call; the buffers are read-only, big-endian
 * views whose position and limit frame the key or payload, and are reused for the next record.
 */
public interface RecordView {

    long offset();

    long timestamp();

    /** The key, or {@code null}. */
    ByteBuffer key();

    /** The payload, or {@code null} for a tombstone. */
    ByteBuffer payload();

    /** The headers, decoded on demand (this allocates; the rest of the view does not). */
    Headers headers();

    /** Copies the view into a {@link Record} that outlives the handler call. */
    Record toRecord();
}
