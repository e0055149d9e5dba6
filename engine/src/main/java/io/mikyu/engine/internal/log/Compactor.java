package io.mikyu.engine.internal.log;

import io.mikyu.engine.Headers;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.FileHeader;
import io.mikyu.engine.internal.format.SegmentDescriptor;

import java.io.IOException;
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

/**
 * Keyed compaction: keeps the newest record of every key, rewriting sealed segments only (the active segment is
 * the writer's). Records without a key are kept. A tombstone (key, no payload) removes the older records of its
 * key and is itself removed once older than the queue's tombstone retention.
 *
 * <p>Offsets never change: rewritten batches keep each record's offset, so a compacted log has gaps. A rewritten
 * segment replaces the original by an atomic rename; a crash before it leaves the original, a crash after it the
 * compacted file (its index is rebuilt on open). The key map costs memory per distinct key; a log with more keys
 * than fit in the heap needs a two-pass design that this first version does not have.
 */
public final class Compactor {

    /** Kept records are re-batched in groups of about this many bytes. */
    private static final int BATCH_BYTES = 256 * 1024;

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
                List<Record> chunk = log.readFromSegments(from, 4096, 16L << 20);
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
        List<Record> all = recordsOf(log, seg);
        List<Record> kept = new ArrayList<>(all.size());
        for (Record r : all) {
            if (r.key() == null) {
                kept.add(r);
                continue;
            }
            boolean isNewest = newest.getOrDefault(ByteBuffer.wrap(r.key()), -1L) == r.offset();
            if (isNewest && (!r.isTombstone() || r.timestamp() >= tombstoneCutoff)) {
                kept.add(r);
            }
        }
        long removed = all.size() - kept.size();
        if (removed == 0) {
            return 0;
        }
        Path dir = log.dir();
        Path tmp = dir.resolve(SegmentDescriptor.fileName(seg.baseOffset) + ".compacting");
        SegmentIndex index = new SegmentIndex(seg.baseOffset);
        long size;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(SegmentDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            FileHeader.SEGMENT.write(header);
            header.putLong(SegmentDescriptor.BASE_OFFSET_OFFSET, seg.baseOffset);
            header.putLong(SegmentDescriptor.CREATED_OFFSET, System.currentTimeMillis());
            header.position(0);
            LogSegment.writeFully(ch, header, 0);
            long pos = SegmentDescriptor.HEADER_LENGTH;
            long sinceEntry = Long.MAX_VALUE / 2;
            int i = 0;
            while (i < kept.size()) {
                int j = i;
                long bytes = 0;
                while (j < kept.size() && (j == i || bytes + kept.get(j).size() < BATCH_BYTES)) {
                    bytes += kept.get(j).size();
                    j++;
                }
                byte[] batch = encode(kept.subList(i, j));
                long maxTs = BatchDescriptor.maxTimestamp(batch);
                if (sinceEntry >= log.engineConfig().indexIntervalBytes()) {
                    index.add(kept.get(i).offset(), (int) pos, maxTs);
                    sinceEntry = 0;
                } else {
                    index.observeTimestamp(maxTs);
                }
                sinceEntry += batch.length;
                LogSegment.writeFully(ch, ByteBuffer.wrap(batch), pos);
                pos += batch.length;
                i = j;
            }
            ch.force(true);
            size = pos;
        }
        Files.move(tmp, seg.file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        index.writeTo(seg.indexFile, size, seg.nextOffset());
        FileChannel ch = FileChannel.open(seg.file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        LogSegment replacement = LogSegment.recovered(seg.file, seg.baseOffset, ch, index, size, seg.nextOffset(),
                size, true);
        log.segments.put(seg.baseOffset, replacement);
        log.invalidateCacheBelow(seg.nextOffset());
        Directories.fsync(dir);
        seg.close();
        return removed;
    }

    private static List<Record> recordsOf(SegmentedLog log, LogSegment seg) {
        List<Record> all = new ArrayList<>();
        long from = seg.baseOffset;
        while (from < seg.nextOffset()) {
            List<Record> chunk = log.readFromSegments(from, 4096, 16L << 20);
            for (Record r : chunk) {
                if (r.offset() >= seg.nextOffset()) {
                    return all;
                }
                all.add(r);
            }
            if (chunk.isEmpty()) {
                break;
            }
            from = chunk.get(chunk.size() - 1).offset() + 1;
        }
        return all;
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
