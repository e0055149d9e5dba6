package io.mikyu.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * Per-queue settings of a log queue, stored with the queue.
 *
 * @param durability      default durability of appends to this queue
 * @param retentionAge    records older than this may be removed (whole segments); {@code null} keeps them
 * @param retentionBytes  the queue is kept under this many bytes (whole segments); {@code -1} for no limit
 * @param compacted       keyed compaction: keep only the newest record per key
 * @param tombstoneRetention how long a compacted tombstone is kept before it is removed too
 * @param segmentBytes    size at which the active segment is sealed and a new one started
 */
public record LogQueueConfig(Durability durability, Duration retentionAge, long retentionBytes, boolean compacted,
                             Duration tombstoneRetention, long segmentBytes) {

    public static final long DEFAULT_SEGMENT_BYTES = 128L * 1024 * 1024;
    /** Segment positions are ints in the index; keep segments well below 2 GiB. */
    public static final long MAX_SEGMENT_BYTES = 1L << 30;
    public static final long MIN_SEGMENT_BYTES = 4096;

    public LogQueueConfig {
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(tombstoneRetention, "tombstoneRetention");
        if (retentionAge != null && (retentionAge.isNegative() || retentionAge.isZero())) {
            throw new IllegalArgumentException("retentionAge must be positive: " + retentionAge);
        }
        if (retentionBytes < -1 || retentionBytes == 0) {
            throw new IllegalArgumentException("retentionBytes must be positive or -1: " + retentionBytes);
        }
        if (segmentBytes < MIN_SEGMENT_BYTES || segmentBytes > MAX_SEGMENT_BYTES) {
            throw new IllegalArgumentException("segmentBytes must be in [" + MIN_SEGMENT_BYTES + ", "
                    + MAX_SEGMENT_BYTES + "]: " + segmentBytes);
        }
    }

    public static LogQueueConfig defaults() {
        return new LogQueueConfig(Durability.ASYNC, null, -1, false, Duration.ofHours(24), DEFAULT_SEGMENT_BYTES);
    }

    public LogQueueConfig withDurability(Durability value) {
        return new LogQueueConfig(value, retentionAge, retentionBytes, compacted, tombstoneRetention, segmentBytes);
    }

    public LogQueueConfig withRetentionAge(Duration value) {
        return new LogQueueConfig(durability, value, retentionBytes, compacted, tombstoneRetention, segmentBytes);
    }

    public LogQueueConfig withRetentionBytes(long value) {
        return new LogQueueConfig(durability, retentionAge, value, compacted, tombstoneRetention, segmentBytes);
    }

    public LogQueueConfig withCompaction(boolean value) {
        return new LogQueueConfig(durability, retentionAge, retentionBytes, value, tombstoneRetention, segmentBytes);
    }

    public LogQueueConfig withTombstoneRetention(Duration value) {
        return new LogQueueConfig(durability, retentionAge, retentionBytes, compacted, value, segmentBytes);
    }

    public LogQueueConfig withSegmentBytes(long value) {
        return new LogQueueConfig(durability, retentionAge, retentionBytes, compacted, tombstoneRetention, value);
    }
}
