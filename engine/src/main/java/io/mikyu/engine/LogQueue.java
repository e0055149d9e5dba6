package io.mikyu.engine;

import java.time.Duration;
import java.util.List;

/**
 * An append-only stream of records addressed by offset.
 *
 * <p>Offsets start at 0 and grow by one per record. Retention and compaction remove records, so a range may
 * have gaps; reads skip them. All methods are thread-safe; appends from many threads are group-committed.
 */
public interface LogQueue {

    String name();

    LogQueueConfig config();

    /** Appends one record with the queue's durability; returns its offset once durable as configured. */
    default long append(Entry entry) {
        return append(entry, config().durability());
    }

    long append(Entry entry, Durability durability);

    /** Appends the records as one batch (written together); returns the offset of the first. */
    default long appendBatch(List<Entry> entries) {
        return appendBatch(entries, config().durability());
    }

    long appendBatch(List<Entry> entries, Durability durability);

    /**
     * Appends records a transport already encoded in the engine's batch layout, as {@link #appendBatch} would
     * append the same entries; returns the offset of the first. The store checks the whole batch first (structure,
     * checksum, its record and batch limits): a malformed batch is refused with an {@link IllegalArgumentException}
     * and nothing is appended. The batch is consumed (its bytes receive the assigned offset).
     */
    long appendEncoded(io.mikyu.engine.EncodedBatch batch, Durability durability);

    /** The record at {@code offset}, or {@code null} if it was compacted away; {@link OffsetOutOfRangeException} outside the log. */
    Record read(long offset);

    /**
     * Up to {@code maxRecords} records from {@code fromOffset} on (the first at or after it), stopping early once
     * {@code maxBytes} is reached (at least one record is always returned if there is one).
     * Empty when {@code fromOffset} is at the end. An offset below {@link #startOffset()} reads from the start.
     */
    List<Record> read(long fromOffset, int maxRecords, long maxBytes);

    default List<Record> read(long fromOffset, int maxRecords) {
        return read(fromOffset, maxRecords, Long.MAX_VALUE);
    }

    /**
     * Like {@link #read(long, int, long)} but waits up to {@code wait} for a record at or after {@code fromOffset}.
     * Interrupting the waiting thread ends the wait with {@link InterruptedException}; it never harms the store.
     */
    List<Record> poll(long fromOffset, int maxRecords, long maxBytes, Duration wait) throws InterruptedException;

    default List<Record> poll(long fromOffset, int maxRecords, Duration wait) throws InterruptedException {
        return poll(fromOffset, maxRecords, Long.MAX_VALUE, wait);
    }

    /**
     * Like {@link #poll(long, int, Duration)} but hands each record to {@code handler} in place, without copying
     * or allocating per record: the consumer path for throughput. Returns the offset to poll from next (after the
     * last record handled), or {@code fromOffset} if nothing came within {@code wait}.
     */
    long poll(long fromOffset, int maxRecords, Duration wait, RecordHandler handler) throws InterruptedException;

    /**
     * For transports: waits like {@link #poll(long, int, Duration, RecordHandler)}, then shows {@code handler} the
     * stored batches holding records at or after {@code fromOffset} as they are (the first may start before it),
     * until about {@code maxBytes} (at least one batch); a batch over {@code maxBatchBytes} is shown record by
     * record instead. Returns the offset to read from next, or {@code fromOffset} if nothing came within
     * {@code wait}.
     */
    long pollEncoded(long fromOffset, long maxBytes, int maxBatchBytes, Duration wait,
                     io.mikyu.engine.EncodedBatchHandler handler) throws InterruptedException;

    /** The first offset still stored (retention moves it forward). */
    long startOffset();

    /** The offset the next append will get: one past the last record. */
    long endOffset();

    /** The first offset whose timestamp is at or after {@code timestampMillis}; {@link #endOffset()} if none. */
    long offsetForTimestamp(long timestampMillis);

    /** The consumer group, created (with no committed offset) if it does not exist. */
    ConsumerGroup group(String name);

    /**
     * The shared consumer group {@code name}, created with {@code config} (starting at the queue's start) if it
     * does not exist. A name is either an exclusive group ({@link #group}) or a shared one, never both.
     */
    SharedGroup sharedGroup(String name, SharedGroupConfig config);

    /**
     * As {@link #sharedGroup(String, SharedGroupConfig)}, with an admission filter: records that do not match are
     * finished as they enter the group's window, never delivered and never holding its committed offset back (a
     * JMS subscription's selector). The filter is not stored: pass it each time the group is obtained; until
     * then, records admitted by a reopened group are not filtered. Setting it finishes the non-matching records
     * already waiting in the window.
     */
    SharedGroup sharedGroup(String name, SharedGroupConfig config, TaskFilter admissionFilter);

    /**
     * As {@link #sharedGroup(String, SharedGroupConfig, TaskFilter)}, and a group that does not exist yet starts
     * at {@code startIfNew} (the others start at the earliest record) — e.g. {@link OffsetReset#latest()} for a
     * subscription that must see only what is appended after it was made.
     */
    SharedGroup sharedGroup(String name, SharedGroupConfig config, TaskFilter admissionFilter,
                            OffsetReset startIfNew);

    /** Names of this queue's consumer groups (exclusive and shared), sorted. */
    List<String> groups();

    /** Deletes a consumer group and its committed offset; {@code false} if it did not exist. */
    boolean deleteGroup(String name);

    /** Applies retention now (it also runs in the background); returns the number of records removed. */
    long applyRetention();

    /** Compacts sealed segments now, keeping the newest record per key; returns the number of records removed. */
    long compact();

    /** Counters and sizes of this queue. */
    QueueStats stats();
}
