package io.mikyu.engine;

/** Where {@link ConsumerGroup#reset(OffsetReset)} moves a group. */
public sealed interface OffsetReset {

    /** The first record still stored. */
    record Earliest() implements OffsetReset { }

    /** The end of the queue: only records appended from now on. */
    record Latest() implements OffsetReset { }

    /** An exact offset (clamped to the stored range). */
    record ToOffset(long offset) implements OffsetReset { }

    /** The first record stored at or after a time (epoch milliseconds). */
    record ToTimestamp(long timestampMillis) implements OffsetReset { }

    static OffsetReset earliest() {
        return new Earliest();
    }

    static OffsetReset latest() {
        return new Latest();
    }

    static OffsetReset toOffset(long offset) {
        return new ToOffset(offset);
    }

    static OffsetReset toTimestamp(long timestampMillis) {
        return new ToTimestamp(timestampMillis);
    }
}
