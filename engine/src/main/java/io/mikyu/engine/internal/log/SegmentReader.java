package io.mikyu.engine.internal.log;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Record;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchReader;
import io.mikyu.engine.internal.format.RecordSink;
import io.mikyu.engine.internal.format.SegmentDescriptor;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The read path of a {@link SegmentedLog} over its segment files (the log's cache is the log's): records from an
 * offset, every batch for replay, a transaction's batches, the offset of a timestamp. Reads windows of the files
 * and walks the batches in them, checking checksums. Callers pass the end offset they loaded, so nothing at or
 * beyond it is returned.
 */
final class SegmentReader {

    /** Bytes read from the active segment per positional read. */
    private static final int READ_WINDOW = 256 * 1024;

    private final SegmentedLog log;
    private final ConcurrentSkipListMap<Long, LogSegment> segments;
    private final EngineConfig engine;

    SegmentReader(SegmentedLog log, ConcurrentSkipListMap<Long, LogSegment> segments, EngineConfig engine) {
        this.log = log;
        this.segments = segments;
        this.engine = engine;
    }

    /** Walks records from {@code from} to {@code end} into {@code sink}; returns the offset to continue from. */
    long readSegments(long from, long end, RecordSink sink) {
        long next = from;
        while (next < end && !sink.isFull()) {
            Map.Entry<Long, LogSegment> e = segments.floorEntry(next);
            if (e == null) {
                e = segments.firstEntry();
                if (e == null) {
                    return next;
                }
                next = e.getKey();
            }
            LogSegment seg = e.getValue();
            if (next >= seg.nextOffset()) {
                Map.Entry<Long, LogSegment> higher = segments.higherEntry(e.getKey());
                if (higher == null) {
                    return next;
                }
                next = Math.max(next, higher.getKey());
                continue;
            }
            try {
                next = readSegment(seg, next, end, sink);
            } catch (IllegalStateException | java.io.UncheckedIOException closed) {
                if (!log.isOpen()) {
                    throw new StoreClosedException(log.describe() + " is closed");
                }
                if (segments.get(seg.baseOffset) == seg) {
                    throw closed;
                }
                // removed by retention or replaced by compaction while we read: look again
            }
        }
        return next;
    }

    private long readSegment(LogSegment seg, long from, long end, RecordSink sink) {
        long limit = seg.size();
        long pos = seg.index.floorPosition(from);
        if (pos < 0) {
            pos = SegmentDescriptor.HEADER_LENGTH;
        }
        long next = from;
        int maxBatch = engine.maxBatchBytes() + BatchDescriptor.HEADER_LENGTH;
        while (pos < limit && next < end && !sink.isFull()) {
            ByteBuffer w = seg.window(pos, READ_WINDOW, limit);
            int p = 0;
            while (p < w.limit() && next < end && !sink.isFull()) {
                if (w.limit() - p < BatchDescriptor.HEADER_LENGTH) {
                    break;
                }
                int total = BatchDescriptor.totalSize(BatchDescriptor.length(w, p));
                if (total > 0 && p + (long) total > w.limit() && p + (long) total <= limit - pos) {
                    if (p == 0) {
                        w = seg.window(pos, total, limit); // one batch larger than the window
                        continue;
                    }
                    break;
                }
                int status = BatchReader.check(w, p, w.limit(), maxBatch, engine.verifyChecksumsOnRead());
                if (status != BatchReader.VALID) {
                    throw new CorruptionException(seg.file, pos + p, status == BatchReader.INCOMPLETE
                            ? "batch runs past the end of the segment" : "batch fails its checksum");
                }
                long last = BatchDescriptor.baseOffset(w, p) + BatchDescriptor.lastOffsetDelta(w, p);
                if (last >= next) {
                    long after = sink.take(w, p, next, seg.file, pos);
                    if (after <= last) {
                        return after;
                    }
                    next = after;
                }
                p += total;
            }
            if (p == 0) {
                break;
            }
            pos += p;
        }
        return pos >= limit ? Math.max(next, seg.nextOffset()) : next;
    }

    /** Every batch from {@code from} to {@code end} in order, checksums checked; see {@link SegmentedLog#replay}. */
    void replay(long from, long end, SegmentedLog.BatchConsumer consumer) {
        for (LogSegment seg : segments.values()) {
            if (seg.nextOffset() <= from) {
                continue;
            }
            long limit = seg.size();
            long pos = Math.max(SegmentDescriptor.HEADER_LENGTH, seg.index.floorPosition(from));
            int maxBatch = engine.maxBatchBytes() + BatchDescriptor.HEADER_LENGTH;
            while (pos < limit) {
                ByteBuffer w = seg.window(pos, READ_WINDOW, limit);
                int p = 0;
                while (w.limit() - p >= BatchDescriptor.HEADER_LENGTH) {
                    int total = BatchDescriptor.totalSize(BatchDescriptor.length(w, p));
                    if (total > 0 && p + (long) total > w.limit() && p + (long) total <= limit - pos) {
                        if (p == 0) {
                            w = seg.window(pos, total, limit);
                            continue;
                        }
                        break;
                    }
                    if (BatchReader.check(w, p, w.limit(), maxBatch, true) != BatchReader.VALID) {
                        throw new CorruptionException(seg.file, pos + p, "batch fails its checksum");
                    }
                    if (BatchDescriptor.baseOffset(w, p) + BatchDescriptor.lastOffsetDelta(w, p) >= from
                            && BatchDescriptor.baseOffset(w, p) < end) {
                        List<Record> records = new ArrayList<>(BatchDescriptor.recordCount(w, p));
                        BatchReader.decode(w, p, from, records, Integer.MAX_VALUE,
                                new BatchReader.ReadBudget(Long.MAX_VALUE), seg.file, pos);
                        consumer.accept(BatchDescriptor.type(w, p), records);
                    }
                    p += total;
                }
                if (p == 0) {
                    break;
                }
                pos += p;
            }
        }
    }

    /** See {@link SegmentedLog#containsProducer}: reads batch headers only. */
    boolean containsProducer(long from, long producerId, byte type) {
        Map.Entry<Long, LogSegment> first = segments.floorEntry(from);
        for (LogSegment seg : first == null ? segments.values() : segments.tailMap(first.getKey()).values()) {
            long limit = seg.size();
            long pos = Math.max(SegmentDescriptor.HEADER_LENGTH, seg.index.floorPosition(from));
            while (pos + BatchDescriptor.HEADER_LENGTH <= limit) {
                ByteBuffer h = seg.window(pos, BatchDescriptor.HEADER_LENGTH, limit);
                if (BatchDescriptor.producerId(h, 0) == producerId && BatchDescriptor.type(h, 0) == type) {
                    return true;
                }
                int total = BatchDescriptor.totalSize(BatchDescriptor.length(h, 0));
                if (total < BatchDescriptor.HEADER_LENGTH) {
                    break;
                }
                pos += total;
            }
        }
        return false;
    }

    /** The first offset whose record timestamp is at or after {@code timestamp}, or {@code end}. */
    long offsetForTimestamp(long timestamp, long end) {
        for (LogSegment seg : segments.values()) {
            if (seg.maxTimestamp() < timestamp) {
                continue;
            }
            int start = seg.index.timestampScanStart(timestamp);
            long pos = start < 0 ? SegmentDescriptor.HEADER_LENGTH : start;
            long limit = seg.size();
            while (pos < limit) {
                ByteBuffer w = seg.window(pos, READ_WINDOW, limit);
                int p = 0;
                while (w.limit() - p >= BatchDescriptor.HEADER_LENGTH) {
                    int total = BatchDescriptor.totalSize(BatchDescriptor.length(w, p));
                    if (p + total > w.limit()) {
                        if (p == 0) {
                            w = seg.window(pos, total, limit);
                            continue;
                        }
                        break;
                    }
                    if (BatchDescriptor.maxTimestamp(w, p) >= timestamp) {
                        List<Record> records = new ArrayList<>();
                        BatchReader.decode(w, p, 0, records, Integer.MAX_VALUE,
                                new BatchReader.ReadBudget(Long.MAX_VALUE), seg.file, pos);
                        for (Record r : records) {
                            if (r.timestamp() >= timestamp) {
                                return Math.min(r.offset(), end);
                            }
                        }
                    }
                    p += total;
                }
                if (p == 0) {
                    break;
                }
                pos += p;
            }
        }
        return end;
    }
}
