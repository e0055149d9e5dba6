package io.mikyu.engine.internal.log;

import io.mikyu.engine.Headers;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.files.FileChannels;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.FileHeader;
import io.mikyu.engine.internal.format.SegmentDescriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Keyed compaction: keeps the newest record of every key, rewriting sealed segments only (the active segment is
 * the writer's). Records without a key are kept. A tombstone (key, no payload) removes the older records of its
 * key and is itself removed once older than the queue's tombstone retention.
 *
 * <p>Offsets never change: rewritten batches keep each record's offset, so a compacted log has gaps. A rewritten
 * segment replaces the original by an atomic rename; a crash before it leaves the original, a crash after it the
 * compacted file (its index is rebuilt on open). Records are read and rewritten a bounded chunk at a time, so a
 * segment's size does not matter to the heap; the key map does: it holds every distinct key of the log (a known
 * limit, see docs/architecture.md).
 */
public final class Compactor {

    /** Kept records are re-batched in groups of about this many bytes. */
    private static final int BATCH_BYTES = 256 * 1024;
    /** Records are read from the segments this many (or this many bytes) at a time: what compaction holds at once. */
    private static final int READ_CHUNK_RECORDS = 1024;
    private static final long READ_CHUNK_BYTES = 4L << 20;

    private Compactor() {
    }

    /** Compacts now; returns the number of records removed. */
    public static long compact(SegmentedLog log, long nowMillis) throws IOException {
        log.maintenance.lock();
        try {
            long end = log.endOffset();
            Map<ByteBuffer, Long> newest = new HashMap<>();
            long from = log.startOffset();
            while (from < end) {
                List<Record> chunk = log.readFromSegments(from, READ_CHUNK_RECORDS, READ_CHUNK_BYTES);
                if (chunk.isEmpty()) {
                    break;
                }
                for (Record r : chunk) {
                    if (r.key() != null) {
                        newest.put(ByteBuffer.wrap(r.key()), r.offset());
                    }
                }
                from = chunk.get(chunk.size() - 1).offset() + 1;
            }
            long tombstoneCutoff = nowMillis - log.config().tombstoneRetention().toMillis();
            long removed = 0;
            for (LogSegment seg : new ArrayList<>(log.segmentList())) {
                if (seg == log.activeSegment() || !seg.isSealed()) {
                    break;
                }
                removed += rewrite(log, seg, newest, tombstoneCutoff);
            }
            return removed;
        } finally {
            log.maintenance.unlock();
        }
    }

    private static long rewrite(SegmentedLog log, LogSegment seg, Map<ByteBuffer, Long> newest,
                                long tombstoneCutoff) throws IOException {
        // A first pass only counts, so a segment with nothing to remove is not rewritten.
        long[] removedCount = new long[1];
        forEachRecordOf(log, seg, r -> {
            if (!keep(r, newest, tombstoneCutoff)) {
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
            ByteBuffer header = ByteBuffer.allocate(SegmentDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            FileHeader.SEGMENT.write(header);
            header.putLong(SegmentDescriptor.BASE_OFFSET_OFFSET, seg.baseOffset);
            header.putLong(SegmentDescriptor.CREATED_OFFSET, System.currentTimeMillis());
            header.position(0);
            LogSegment.writeFully(ch, header, 0);
            BatchWriter out = new BatchWriter(ch, index, log.engineConfig().indexIntervalBytes());
            forEachRecordOf(log, seg, r -> {
                if (keep(r, newest, tombstoneCutoff)) {
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
        LogSegment replacement = LogSegment.recovered(seg.file, seg.baseOffset, ch, index, size, seg.nextOffset(),
                size, true);
        log.segments.put(seg.baseOffset, replacement);
        log.invalidateCacheBelow(seg.nextOffset());
        Directories.fsync(dir);
        seg.close();
        return removed;
    }

    private static boolean keep(Record r, Map<ByteBuffer, Long> newest, long tombstoneCutoff) {
        if (r.key() == null) {
            return true;
        }
        boolean isNewest = newest.getOrDefault(ByteBuffer.wrap(r.key()), -1L) == r.offset();
        return isNewest && (!r.isTombstone() || r.timestamp() >= tombstoneCutoff);
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
