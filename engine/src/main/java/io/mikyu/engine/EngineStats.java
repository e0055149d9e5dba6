package io.mikyu.engine;

/**
 * A snapshot of the write path and store totals.
 *
 * @param commits        group commits: one write per touched file and, for sync batches, one fsync
 * @param commitRequests append calls those commits covered
 * @param fsyncs         fsync calls issued
 */
public record EngineStats(String location, int logQueues, int taskQueues, long bytesOnDisk, long commits,
                          long commitRequests, long fsyncs, long appendedRecords, long appendedBytes,
                          long cacheHits, long cacheMisses, long freeDiskBytes) {

    /** Average number of append calls one group commit covered. */
    public double requestsPerCommit() {
        return commits == 0 ? 0.0 : (double) commitRequests / commits;
    }

    public double cacheHitRate() {
        long total = cacheHits + cacheMisses;
        return total == 0 ? 0.0 : (double) cacheHits / total;
    }
}
