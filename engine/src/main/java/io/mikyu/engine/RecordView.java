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

    /**
     * A view of a record already copied out of storage (a remote or another backend's read): the buffers wrap its
     * arrays read-only, and {@link #toRecord()} is the record itself.
     */
    static RecordView of(Record record) {
        return new RecordView() {
            @Override
            public long offset() {
                return record.offset();
            }

            @Override
            public long timestamp() {
                return record.timestamp();
            }

            @Override
            public ByteBuffer key() {
                return record.key() == null ? null : ByteBuffer.wrap(record.key()).asReadOnlyBuffer();
            }

            @Override
            public ByteBuffer payload() {
                return record.payload() == null ? null : ByteBuffer.wrap(record.payload()).asReadOnlyBuffer();
            }

            @Override
            public Headers headers() {
                return record.headers();
            }

            @Override
            public Record toRecord() {
                return record;
            }
        };
    }
}
