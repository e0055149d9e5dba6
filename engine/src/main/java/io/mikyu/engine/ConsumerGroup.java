package io.mikyu.engine;

import java.time.Duration;
import java.util.List;

/**
 * A named, durable position in a log queue. The committed offset survives restarts and crashes once
 * {@link #commit(long)} returns; it is the offset of the next record the group will read.
 *
 * <p>This is the exclusive (cumulative-commit) mode: one reader at a time advances the position.
 */
public interface ConsumerGroup {

    String name();

    String queue();

    /**
     * The committed offset: the next record to read. A group that never committed starts at the queue's
     * {@link LogQueue#startOffset()}. If retention removed the committed records, the start offset.
     */
    long position();

    /** {@code true} if the group has a committed offset. */
    boolean hasCommitted();

    /** Durably commits {@code nextOffset} (the offset after the last record processed). */
    void commit(long nextOffset);

    /** Commits a position chosen by {@code reset}. Returns the new position. */
    long reset(OffsetReset reset);

    /** Records from the committed position on, waiting up to {@code wait}; does not commit. */
    List<Record> poll(int maxRecords, Duration wait) throws InterruptedException;

    /** Records between the committed position and the end of the queue. */
    long lag();
}
