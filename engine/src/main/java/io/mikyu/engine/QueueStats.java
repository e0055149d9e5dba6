package io.mikyu.engine;

/**
 * A snapshot of one queue's counters.
 *
 * @param cacheHits   reads served from the ring cache of recent records
 * @param cacheMisses reads that went to the segment files
 */
public record QueueStats(String name, QueueKind kind, long startOffset, long endOffset, long records, long bytesOnDisk,
                         int segments, long appendedRecords, long appendedBytes, long readRecords,
                         long cacheHits, long cacheMisses) {

    /** Fraction of reads served from the ring cache, 0..1; 0 when nothing was read. */
    public double cacheHitRate() {
        long total = cacheHits + cacheMisses;
        return total == 0 ? 0.0 : (double) cacheHits / total;
    }
}
