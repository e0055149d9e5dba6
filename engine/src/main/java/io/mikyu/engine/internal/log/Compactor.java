package io.mikyu.engine.internal.log;

import io.mikyu.engine.Headers;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.files.FileChannels;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.SegmentDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Keyed compaction of one log queue: keeps the newest record of every key, rewriting sealed segments only (the
 * active segment is the writer's). Records without a key are kept. A tombstone (key, no payload) removes the older
 * records of its key and is itself removed once older than the queue's tombstone retention.
 *
 * <p>The newest offset of each key comes from a {@code KeyOffsetMap} of fixed size
 * ({@code EngineConfig.compactionKeyMapBytes}), as in Kafka's log cleaner. A pass maps the keys of the dirty part
 * of the log (from the cleaned boundary on) until the map is full, then rewrites the sealed segments up to where
 * the mapping stopped: a record is removed only for a newer record of its key that the map holds, so a key the map
 * does not hold loses nothing. The boundary then advances to where the mapping stopped, and the next pass maps the
 * keys after it; a log with more distinct keys than the map holds compacts in several passes, in memory that does
 * not grow with the number of keys.
 *
 * <p>A compaction first fsyncs the log and maps only the records below the end offset that fsync covered, so a
 * record is removed only for a newer one that is durable: a power loss cannot leave its key with no record.
 *
 * <p>Below the boundary, each key has one record left (its newest there) and an expired tombstone's older records
 * are gone, which is why a later pass may remove an expired tombstone its map does not hold. The boundary lives in
 * memory only: after a restart the first compaction starts from the log's start again, which is slower, never
 * wrong (a lower boundary only makes a pass map more).
 *
 * <p>Offsets never change: rewritten batches keep each record's offset, so a compacted log has gaps. A rewritten
 * segment replaces the original by an atomic rename; a crash before it leaves the original, a crash after it the
 * compacted file (its index is rebuilt on open), and each segment's rewrite is complete in itself, so a crash
 * between segments or passes leaves a log in which every removed record has its newer record still there.
 * Records are read and rewritten a bounded chunk at a time, so a segment's size does not matter to the heap.
 */
public final class Compactor {

    private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

    /** Kept records are re-batched in groups of about this many bytes. */
    private static final int BATCH_BYTES = 256 * 1024;
    /** Records are read from the segments this many (or this many bytes) at a time: what compaction holds at once. */
    private static final int READ_CHUNK_RECORDS = 1024;
    private static final long READ_CHUNK_BYTES = 4L << 20;

    private final SegmentedLog log;
    /** Where the dirty part begins: below it the log is compacted (see the class comment); under maintenance. */
    private long cleanedTo;
    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong mappedKeys = new AtomicLong();

    public Compactor(SegmentedLog log) {
        this.log = log;
    }

    /** Passes made so far: one per compaction whose dirty part's keys fit in the map, more otherwise. */
    public long passes() {
        return passes.get();
    }

    /** Distinct keys mapped, summed over the passes. */
    public long mappedKeys() {
        return mappedKeys.get();
    }

    /** Compacts now, in as many passes as the key map needs; returns the number of records removed. */
    public long compact(long nowMillis) throws IOException {
        log.maintenance.lock();
        try {
            // Only durable records may supersede: with durability=async the newest ones may not be fsynced yet,
            // and a rewrite (fsynced) that dropped an older record for one of them would leave its key with no
            // record after a power loss. Mapping stops at what this fsync made durable.
            long end = log.forceToEnd();
            long tombstoneCutoff = nowMillis - log.config().tombstoneRetention().toMillis();
            long from = Math.max(cleanedTo, log.startOffset());
            KeyOffsetMap map = KeyOffsetMap.withAtMost(log.engineConfig().compactionKeyMapBytes(), end - from);
            long removed = 0;
            int passesNow = 0;
            while (true) {
                map.clear();
                long mappedTo = mapKeys(from, end, map);
                Pass pass = rewriteUpTo(mappedTo, map, tombstoneCutoff);
                removed += pass.removed;
                passesNow++;
                passes.incrementAndGet();
                mappedKeys.addAndGet(map.size());
                cleanedTo = pass.cleanedTo;
                // Done once every key up to the end was mapped, or the mapping ran into the active segment (what
                // is left there is compacted once it is sealed).
                if (mappedTo >= end || pass.cleanedTo < mappedTo) {
                    break;
                }
                from = mappedTo;
            }
            if (passesNow > 1) {
                LOG.debug("compaction of {}: {} passes of at most {} keys ({} bytes of key map), {} records removed",
                        log.describe(), passesNow, map.maxKeys(), map.bytes(), removed);
            }
            return removed;
        } finally {
            log.maintenance.unlock();
        }
    }

    /** Maps the keys from {@code from} until {@code end} or a full map; returns the first offset not mapped. */
    private long mapKeys(long from, long end, KeyOffsetMap map) {
        long next = from;
        while (next < end) {
            List<Record> chunk = log.readFromSegments(next, READ_CHUNK_RECORDS, READ_CHUNK_BYTES);
            if (chunk.isEmpty()) {
                return end;
            }
            for (Record r : chunk) {
                if (r.offset() >= end) {
                    return end;
                }
                if (r.key() != null && !map.put(r.key(), r.offset())) {
                    return r.offset();
                }
            }
            next = chunk.get(chunk.size() - 1).offset() + 1;
        }
        return end;
    }

    /** What a pass removed, and how far the log is compacted after it. */
    private record Pass(long removed, long cleanedTo) {
    }

    /** Rewrites the sealed segments that begin below {@code mappedTo}, oldest first. */
    private Pass rewriteUpTo(long mappedTo, KeyOffsetMap map, long tombstoneCutoff) throws IOException {
        long removed = 0;
        for (LogSegment seg : new ArrayList<>(log.segmentList())) {
            if (seg.baseOffset >= mappedTo) {
                break;
            }
            if (seg == log.activeSegment() || !seg.isSealed()) {
                return new Pass(removed, seg.baseOffset);
            }
            removed += rewrite(log, seg, r -> keep(r, map, mappedTo, tombstoneCutoff));
        }
        return new Pass(removed, mappedTo);
    }

    /**
     * Whether a record stays: one without a key always; one whose key has a newer record in the map never; an
     * expired tombstone neither, if it lies below {@code mappedTo}, where its key's older records are gone by the
     * end of the pass (in the map's range the map removes them, below it they were removed before).
     */
    private static boolean keep(Record r, KeyOffsetMap map, long mappedTo, long tombstoneCutoff) {
        if (r.key() == null) {
            return true;
        }
        if (map.get(r.key()) > r.offset()) {
            return false;
        }
        return !(r.isTombstone() && r.timestamp() < tombstoneCutoff && r.offset() < mappedTo);
    }

    private static long rewrite(SegmentedLog log, LogSegment seg, Predicate<Record> keep) throws IOException {
        // A first pass only counts, so a segment with nothing to remove is not rewritten.
        long[] removedCount = new long[1];
        forEachRecordOf(log, seg, r -> {
            if (!keep.test(r)) {
                removedCount[0]++;
            }
        });
        long removed = removedCount[0];
        if (removed == 0) {
            return 0;
        }
        Path dir = log.dir();
        Path tmp = dir.resolve(SegmentDescriptor.fileName(seg.baseOffset) + ".compacting");
        Files.deleteIfExists(tmp); // left by an attempt that failed
        SegmentIndex index = new SegmentIndex(seg.baseOffset);
        long size;
        boolean done = false;
        try (FileChannel ch = FileChannels.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            LogSegment.writeFully(ch, SegmentDescriptor.header(seg.baseOffset, System.currentTimeMillis()), 0);
            BatchWriter out = new BatchWriter(ch, index, log.engineConfig().indexIntervalBytes());
            forEachRecordOf(log, seg, r -> {
                if (keep.test(r)) {
                    out.add(r);
                }
            });
            out.flush();
            ch.force(true);
            size = out.position;
            Files.move(tmp, seg.file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
        index.writeTo(seg.indexFile, size, seg.nextOffset());
        FileChannel ch = FileChannels.open(seg.file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        LogSegment replacement = LogSegment.recovered(seg.file, seg.baseOffset, ch, log.files, index, size,
                seg.nextOffset(),
                size, true);
        log.segments.put(seg.baseOffset, replacement);
        log.invalidateCacheBelow(seg.nextOffset());
        Directories.fsync(dir);
        seg.close();
        return removed;
    }

    /** Kept records, re-batched and written as they come: at most one batch is held in memory. */
    private static final class BatchWriter {
        private final FileChannel channel;
        private final SegmentIndex index;
        private final long indexInterval;
        private final List<Record> pending = new ArrayList<>();
        private long pendingBytes;
        private long sinceEntry = Long.MAX_VALUE / 2;
        long position = SegmentDescriptor.HEADER_LENGTH;

        BatchWriter(FileChannel channel, SegmentIndex index, long indexInterval) {
            this.channel = channel;
            this.index = index;
            this.indexInterval = indexInterval;
        }

        void add(Record r) {
            if (!pending.isEmpty() && pendingBytes + r.size() >= BATCH_BYTES) {
                flush();
            }
            pending.add(r);
            pendingBytes += r.size();
        }

        void flush() {
            if (pending.isEmpty()) {
                return;
            }
            byte[] batch = encode(pending);
            long maxTs = BatchDescriptor.maxTimestamp(batch);
            if (sinceEntry >= indexInterval) {
                index.add(pending.get(0).offset(), (int) position, maxTs);
                sinceEntry = 0;
            } else {
                index.observeTimestamp(maxTs);
            }
            sinceEntry += batch.length;
            try {
                LogSegment.writeFully(channel, ByteBuffer.wrap(batch), position);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            position += batch.length;
            pending.clear();
            pendingBytes = 0;
        }
    }

    /** Every record of {@code seg}, read a bounded chunk at a time (never the whole segment at once). */
    private static void forEachRecordOf(SegmentedLog log, LogSegment seg, Consumer<Record> action)
            throws IOException {
        long from = seg.baseOffset;
        try {
            while (from < seg.nextOffset()) {
                List<Record> chunk = log.readFromSegments(from, READ_CHUNK_RECORDS, READ_CHUNK_BYTES);
                for (Record r : chunk) {
                    if (r.offset() >= seg.nextOffset()) {
                        return;
                    }
                    action.accept(r);
                }
                if (chunk.isEmpty()) {
                    return;
                }
                from = chunk.get(chunk.size() - 1).offset() + 1;
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static byte[] encode(List<Record> records) {
        int n = records.size();
        long[] offsets = new long[n];
        long[] timestamps = new long[n];
        byte[][] keys = new byte[n][];
        byte[][] values = new byte[n][];
        Headers[] headers = new Headers[n];
        for (int i = 0; i < n; i++) {
            Record r = records.get(i);
            offsets[i] = r.offset();
            timestamps[i] = r.timestamp();
            keys[i] = r.key();
            values[i] = r.payload();
            headers[i] = r.headers();
        }
        return io.mikyu.engine.internal.format.BatchEncoder.encodeWithOffsets(offsets[0], offsets, timestamps, keys,
                values, headers, n);
    }
}
