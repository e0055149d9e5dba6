package io.mikyu.engine.internal.log;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.SegmentDescriptor;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.internal.write.PartialWriteException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The write side of a {@link SegmentedLog}, driven by the writer thread only: stamps and writes each cycle's
 * batches into the active segment (rolling to a new one when it is full), then publishes them or, after a failure,
 * forgets them. All its state is the writer thread's; readers see a cycle only once {@link #publish()} stored the
 * log's end offset.
 */
final class SegmentWriter {

    private final SegmentedLog log;
    private final Path dir;
    private final LogQueueConfig config;
    private final EngineConfig engine;
    private final ByteBuffer scratch;
    private final ConcurrentSkipListMap<Long, LogSegment> segments;
    private final RecentBatchCache cache;

    private long writerNext;
    private long writerSize;
    private long attemptedEnd;
    /** Where the current cycle began: what {@link #abort()} goes back to if the cycle never left its segment. */
    private LogSegment cycleSegment;
    private long cycleNext;
    private long cycleSize;
    private boolean syncSeen;
    private final List<byte[]> unpublished = new ArrayList<>();
    /** Producer-staged direct buffers waiting to be written together. */
    private final List<ByteBuffer> staged = new ArrayList<>();
    private long pendingRecords;

    SegmentWriter(SegmentedLog log, Path dir, LogQueueConfig config, EngineConfig engine, ByteBuffer scratch,
                  ConcurrentSkipListMap<Long, LogSegment> segments, RecentBatchCache cache) {
        this.log = log;
        this.dir = dir;
        this.config = config;
        this.engine = engine;
        this.scratch = scratch;
        this.segments = segments;
        this.cache = cache;
        this.writerNext = log.active.nextOffset();
        this.writerSize = log.active.size();
        this.attemptedEnd = writerSize;
    }

    /** The offset after everything written so far, published or not. */
    long next() {
        return writerNext;
    }

    /** Writes {@code requests} at the end of the active segment; returns the bytes written. */
    long write(List<AppendRequest> requests) throws IOException {
        LogSegment seg = log.active;
        if (seg.isSealed()) {
            seg = startNextSegment(); // an earlier roll sealed it and could not make the next one
        }
        cycleSegment = seg;
        cycleNext = writerNext;
        cycleSize = writerSize;
        long pos = writerSize;
        long pendingAt = pos;
        long written = 0;
        scratch.clear();
        staged.clear();
        for (int i = 0; i < requests.size(); i++) {
            AppendRequest r = requests.get(i);
            byte[] batch = r.batch();
            int len = batch.length;
            syncSeen |= r.isSync();
            if (pos + len > config.segmentBytes() && pos > SegmentDescriptor.HEADER_LENGTH) {
                flushPending(seg, pendingAt);
                seg.publish(pos, writerNext); // seal() needs the final size; endOffset still hides it
                try {
                    seg = roll();
                } catch (IOException e) {
                    if (i > 0 && seg.isSealed() && !(e instanceof FsyncFailedException)) {
                        // Sealed, so fsynced: the requests before this one are stored and stay readable.
                        throw new PartialWriteException(i, e);
                    }
                    throw e;
                }
                pos = SegmentDescriptor.HEADER_LENGTH;
                pendingAt = pos;
            }
            long base = writerNext;
            BatchDescriptor.putBaseOffset(batch, base);
            writerNext = base + BatchDescriptor.lastOffsetDelta(batch) + 1;
            long maxTs = BatchDescriptor.maxTimestamp(batch);
            if (seg.bytesSinceIndexEntry >= engine.indexIntervalBytes()) {
                seg.index.add(base, (int) pos, maxTs);
                seg.bytesSinceIndexEntry = 0;
            } else {
                seg.index.observeTimestamp(maxTs);
            }
            seg.bytesSinceIndexEntry += len;
            ByteBuffer direct = r.staged();
            if (direct != null) {
                // Staged by the producer: goes to the kernel as is, gathered with its neighbours.
                if (scratch.position() > 0) {
                    pendingAt = flushPending(seg, pendingAt);
                }
                direct.putLong(BatchDescriptor.BASE_OFFSET_OFFSET, base);
                staged.add(direct);
            } else {
                // Copy through the small scratch buffer and write whenever it fills: the kernel then copies from
                // memory still in this core's cache (see Store.WRITER_SCRATCH_BYTES for the numbers).
                if (!staged.isEmpty()) {
                    pendingAt = flushPending(seg, pendingAt);
                }
                int copied = 0;
                while (copied < len) {
                    if (!scratch.hasRemaining()) {
                        pendingAt = flushPending(seg, pendingAt);
                    }
                    int n = Math.min(len - copied, scratch.remaining());
                    scratch.put(batch, copied, n);
                    copied += n;
                }
            }
            pos += len;
            written += len;
            unpublished.add(batch);
            pendingRecords += BatchDescriptor.recordCount(batch);
        }
        flushPending(seg, pendingAt);
        writerSize = pos;
        return written;
    }

    /** Writes what is pending (staged buffers or the scratch buffer) at {@code at}; returns the position after. */
    private long flushPending(LogSegment seg, long at) throws IOException {
        if (!staged.isEmpty()) {
            long bytes = 0;
            for (ByteBuffer b : staged) {
                bytes += b.remaining();
            }
            long end = at + bytes;
            preallocateFor(seg, end);
            attemptedEnd = Math.max(attemptedEnd, end);
            seg.write(staged.toArray(new ByteBuffer[0]), at, bytes);
            staged.clear();
            return end;
        }
        return flushScratch(seg, at);
    }

    /** Writes the scratch buffer at {@code at}; returns the position after it. */
    private long flushScratch(LogSegment seg, long at) throws IOException {
        scratch.flip();
        long end = at + scratch.remaining();
        if (scratch.hasRemaining()) {
            preallocateFor(seg, end);
            attemptedEnd = Math.max(attemptedEnd, end);
            seg.write(scratch, at);
        }
        scratch.clear();
        return end;
    }

    /**
     * Zero-fills ahead of the write position once this queue has seen a sync append, so each fsync overwrites
     * already-allocated blocks and does not also have to commit a new file length (on the development disk
     * about 170 µs against 420 µs per fdatasync). Queues only written asynchronously skip it: they do not fsync
     * on the hot path, and the zeros would be written twice.
     */
    private void preallocateFor(LogSegment seg, long end) throws IOException {
        if (syncSeen && engine.preallocateBytes() > 0) {
            long cap = Math.max(end, config.segmentBytes());
            seg.preallocate(end, Math.min(engine.preallocateBytes(), cap - seg.allocated));
        }
    }

    private LogSegment roll() throws IOException {
        log.active.seal();
        return startNextSegment();
    }

    /** Makes the segment after the sealed active one the active one. */
    private LogSegment startNextSegment() throws IOException {
        LogSegment next = LogSegment.create(dir, writerNext, log.files);
        attemptedEnd = SegmentDescriptor.HEADER_LENGTH;
        writerSize = SegmentDescriptor.HEADER_LENGTH;
        segments.put(next.baseOffset, next);
        log.active = next;
        return next;
    }

    /** Makes this cycle's writes readable: segment size, cache, counters, and last the end offset. */
    void publish() {
        LogSegment seg = log.active;
        seg.publish(writerSize, writerNext);
        long bytes = 0;
        for (byte[] batch : unpublished) {
            cache.add(batch);
            bytes += batch.length;
        }
        unpublished.clear();
        long records = pendingRecords;
        pendingRecords = 0;
        log.published(writerNext, records, bytes);
    }

    /** Forgets this cycle's unpublished writes after a failure; see {@link SegmentedLog#abort()}. */
    void abort() {
        LogSegment seg = log.active;
        if (seg == cycleSegment && !seg.isSealed()) {
            // A roll that failed before sealing had counted this cycle's first batches in the segment's size.
            seg.publish(cycleSize, cycleNext);
        }
        writerNext = seg.nextOffset();
        writerSize = seg.size();
        seg.index.truncateTo(writerSize);
        unpublished.clear();
        pendingRecords = 0;
        cache.clear();
        log.aborted(writerNext);
        // Zero what a partial write may have left, so recovery cannot resurrect a batch its producer saw fail.
        try {
            long end = Math.min(attemptedEnd, seg.allocated);
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(1 << 20, Math.max(0, end - writerSize)));
            for (long p = writerSize; p < end; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), end - p));
                int n = zeros.remaining();
                seg.write(zeros, p);
                p += n;
            }
            if (end > writerSize) {
                seg.markDirty(); // a seal that failed may have fsynced what the zeros hide: the next fsync covers them
            }
        } catch (IOException | RuntimeException ignored) {
            // best effort: the next successful write overwrites the same bytes anyway
        }
        attemptedEnd = writerSize;
    }
}
