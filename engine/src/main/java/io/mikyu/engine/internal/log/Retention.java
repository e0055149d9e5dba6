package io.mikyu.engine.internal.log;

import io.mikyu.engine.LogQueueConfig;

import java.io.IOException;

/**
 * Retention by age and by size, a whole sealed segment at a time (the active segment is never removed, so the
 * log always knows its next offset). A segment goes when its newest record is older than the age limit, or
 * while the queue exceeds its size limit, oldest first.
 */
public final class Retention {

    private Retention() {
    }

    /**
     * Removes the sealed segments that end at or below {@code offset}, for a task queue whose records below its
     * lowest unfinished task are all finished. Returns the number of records removed.
     */
    public static long dropSegmentsBelow(SegmentedLog log, long offset) throws IOException {
        log.maintenance.lock();
        try {
            LogSegment keepFrom = null;
            for (LogSegment seg : log.segmentList()) {
                if (seg == log.activeSegment() || seg.nextOffset() > offset) {
                    keepFrom = seg;
                    break;
                }
            }
            return log.dropSegmentsBefore(keepFrom);
        } finally {
            log.maintenance.unlock();
        }
    }

    /**
     * Removes the sealed segments whose records all carry a timestamp at or below {@code stamp}. A shared group's
     * state log stamps each record with the group's window end, so this drops state about finished records only.
     */
    public static long dropSegmentsStampedAtOrBelow(SegmentedLog log, long stamp) throws IOException {
        log.maintenance.lock();
        try {
            LogSegment keepFrom = null;
            for (LogSegment seg : log.segmentList()) {
                if (seg == log.activeSegment() || seg.maxTimestamp() > stamp) {
                    keepFrom = seg;
                    break;
                }
            }
            return log.dropSegmentsBefore(keepFrom);
        } finally {
            log.maintenance.unlock();
        }
    }

    /** Applies the queue's retention now; returns the number of records removed. */
    public static long apply(SegmentedLog log, long nowMillis) throws IOException {
        LogQueueConfig config = log.config();
        if (config.retentionAge() == null && config.retentionBytes() < 0) {
            return 0;
        }
        log.maintenance.lock();
        try {
            long total = log.bytesOnDisk();
            long cutoff = config.retentionAge() == null ? Long.MIN_VALUE
                    : nowMillis - config.retentionAge().toMillis();
            LogSegment keepFrom = null;
            for (LogSegment seg : log.segmentList()) {
                if (seg == log.activeSegment()) {
                    keepFrom = seg;
                    break;
                }
                boolean tooOld = !seg.isEmpty() && seg.maxTimestamp() < cutoff;
                boolean tooBig = config.retentionBytes() > 0 && total > config.retentionBytes();
                if (!tooOld && !tooBig) {
                    keepFrom = seg;
                    break;
                }
                total -= seg.size();
            }
            return log.dropSegmentsBefore(keepFrom);
        } finally {
            log.maintenance.unlock();
        }
    }
}
