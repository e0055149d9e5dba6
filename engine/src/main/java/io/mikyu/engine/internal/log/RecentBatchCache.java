package io.mikyu.engine.internal.log;

import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.RecordSink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A ring of the most recently written batches of one queue, so consumers that keep up read from memory instead
 * of the segment files.
 *
 * <p>The cached objects are the producers' own encoded batch arrays, immutable once the writer has stamped their
 * base offset and published them, so caching costs no copy. One writer adds; readers search lock-free. A reader
 * that races the writer may find a slot already reused: every candidate is checked against the offset wanted,
 * and a mismatch is simply a miss (the caller falls back to the segments).
 *
 * <p>Bounded twice: by slot count (the ring) and by bytes (older batches are dropped once the sum exceeds the
 * budget), so both many tiny batches and a few huge ones stay within memory limits.
 */
final class RecentBatchCache {

    private final AtomicReferenceArray<byte[]> slots;
    private final int mask;
    private final long byteBudget;
    /** Sequence number of the next batch to add; slot = seq & mask. */
    private volatile long head;
    /** Oldest sequence number still cached. */
    private volatile long tail;
    /** Offsets below this are never served (compaction rewrote them on disk). */
    private volatile long floor;
    private long bytes;

    RecentBatchCache(int slotCount, long byteBudget) {
        int n = Integer.highestOneBit(Math.max(2, slotCount - 1)) << 1;
        this.slots = new AtomicReferenceArray<>(n);
        this.mask = n - 1;
        this.byteBudget = byteBudget;
    }

    /** Writer: caches a published batch. Batches must be added in offset order. */
    void add(byte[] batch) {
        if (byteBudget == 0 || batch.length > byteBudget) {
            clear();
            return;
        }
        long h = head;
        long t = tail;
        long evictFrom = t;
        while (h - t >= slots.length() || (bytes + batch.length > byteBudget && t < h)) {
            byte[] old = slots.get((int) (t & mask));
            bytes -= old == null ? 0 : old.length;
            t++;
        }
        tail = t; // published before the slot is reused, so readers treat the old sequence as gone
        // Let go of what was evicted: a slot left pointing at its old array would keep up to 4096 batches reachable
        // whatever the byte budget (4 GiB of 1 MiB batches). A reader that meets the null takes it as a miss.
        for (long seq = evictFrom; seq < t; seq++) {
            slots.set((int) (seq & mask), null);
        }
        slots.set((int) (h & mask), batch);
        bytes += batch.length;
        head = h + 1;
    }

    /** Any thread: stops serving offsets below {@code offset}, whose records on disk were rewritten. */
    void invalidateBelow(long offset) {
        floor = Math.max(floor, offset);
    }

    /** Writer: drops everything (after an aborted write or a truncation). */
    void clear() {
        long h = head;
        long t = tail;
        tail = h;
        for (long seq = t; seq < h; seq++) {
            slots.set((int) (seq & mask), null);
        }
        bytes = 0;
    }

    /**
     * Decodes records from {@code from} on into {@code out} if the batch holding {@code from} is cached, going on
     * through newer cached batches. Returns the offset to continue from, or {@code from} on a miss.
     */
    long read(long from, long end, RecordSink sink, Path file) {
        if (from < floor) {
            return from;
        }
        long h = head;
        long seq = find(from, tail, h);
        if (seq < 0) {
            return from;
        }
        long next = from;
        for (; seq < h && next < end && !sink.isFull(); seq++) {
            byte[] batch = slots.get((int) (seq & mask));
            if (batch == null) {
                break;
            }
            long base = BatchDescriptor.baseOffset(batch);
            long last = base + BatchDescriptor.lastOffsetDelta(batch);
            if (last < next || base > next) {
                break; // a reused slot: the caller reads the rest from disk
            }
            // The array is immutable once published, so decoding it is safe even if its slot is reused meanwhile.
            long after = sink.take(ByteBuffer.wrap(batch).order(ByteOrder.LITTLE_ENDIAN), 0, next, file, 0);
            next = after;
            if (after <= last) {
                break; // stopped inside the batch by a limit
            }
        }
        return next;
    }

    /** The sequence number of the cached batch containing {@code offset}, or -1. */
    private long find(long offset, long t, long h) {
        long lo = t;
        long hi = h - 1;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            byte[] batch = slots.get((int) (mid & mask));
            if (batch == null) {
                return -1;
            }
            long base = BatchDescriptor.baseOffset(batch);
            long last = base + BatchDescriptor.lastOffsetDelta(batch);
            if (offset < base) {
                hi = mid - 1;
            } else if (offset > last) {
                lo = mid + 1;
            } else {
                return mid < tail ? -1 : mid;
            }
        }
        return -1;
    }
}
