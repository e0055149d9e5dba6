package io.mikyu.engine.internal.log;

import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.RecordSink;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A ring of the most recently written batches of one queue, so consumers that keep up read from memory instead
 * of the segment files.
 *
 * <p>The writer copies each published batch into chunks of memory that the cache allocates once and reuses, rather
 * than keeping the producers' arrays: a kept array lives just long enough (tens of milliseconds, the budget's worth
 * of appends) to survive a young collection, so a collector copies and promotes the whole budget over and over and
 * the heap grows to hold what dies in the old generation. Chunks grow from 512 bytes to an eighth of the budget, so a
 * queue that holds little costs little. A batch larger than a chunk is kept as the array it came in.
 *
 * <p>One writer adds; readers search lock-free. A reader pins the chunk it decodes from, and the writer reuses a
 * chunk only after it retired it (bumped its generation) and saw it unpinned: a reader that pins a chunk either
 * finds its generation unchanged, and the bytes stay as they are until it unpins, or finds it changed and takes a
 * miss (the caller falls back to the segments). Every candidate is also checked against the offset wanted, so a
 * slot reused meanwhile is a miss too.
 *
 * <p>Bounded twice: by slot count (the ring) and by bytes (older batches are dropped once the sum exceeds the
 * budget), so both many tiny batches and a few huge ones stay within memory limits.
 *
 * <p>The ring starts with {@link #FIRST_SLOTS} slots and doubles as batches come, up to the slot count: a full-size
 * ring (16 KiB of references at 4,096 slots) for each of ten thousand queues that hold a message or none would be
 * most of their heap. A reader that still holds the smaller ring finds its slots stale or empty: a miss, as for a
 * reused slot, since every entry is checked against the offset wanted.
 */
final class RecentBatchCache {

    /** The first chunk of a queue (or the first batch's size): ten thousand queues of a few records cost little. */
    static final int FIRST_CHUNK_BYTES = 512;
    /** The budget is held in this many full-size chunks. */
    private static final int CHUNKS_PER_BUDGET = 8;
    private static final int MAX_SPARE_CHUNKS = 2;

    /** Memory batches are copied into, reused once no batch in it is cached and no reader holds it. */
    private static final class Chunk {
        final byte[] data;
        /** False for an oversized batch kept as its own array: never reused, never counted as allocated. */
        final boolean pooled;
        /** Bumped when the chunk is retired: entries of an older generation are gone. */
        volatile int generation;
        final AtomicInteger pins = new AtomicInteger();
        /** Writer: next free byte, and how many cached batches it holds. */
        int used;
        int live;

        Chunk(byte[] data, boolean pooled) {
            this.data = data;
            this.pooled = pooled;
        }
    }

    /** One cached batch: immutable, so a reader sees all of it or, if its slot was reused, another entry. */
    private record Entry(Chunk chunk, int generation, int pos, int length, long base, long last) {
    }

    /** Slots a new cache starts with. */
    static final int FIRST_SLOTS = 16;

    /** The ring: replaced by one twice the size (writer) until it has {@link #maxSlots}; slot = seq & (length - 1). */
    private volatile AtomicReferenceArray<Entry> slots;
    private final int maxSlots;
    private final long byteBudget;
    private final int fullChunkBytes;
    /** Sequence number of the next batch to add. */
    private volatile long head;
    /** Oldest sequence number still cached. */
    private volatile long tail;
    /** Offsets below this are never served (compaction rewrote them on disk). */
    private volatile long floor;

    // writer state
    private long bytes;
    /** The chunk being filled, or null. */
    private Chunk current;
    /** Full-size chunks that hold nothing and no reader holds: reused before anything is allocated. */
    private final ArrayDeque<Chunk> spare = new ArrayDeque<>();
    private int nextChunkBytes;
    /** Bytes of chunk memory allocated over the cache's life (reuse keeps it near the budget). */
    private long allocatedBytes;

    RecentBatchCache(int slotCount, long byteBudget) {
        int n = Integer.highestOneBit(Math.max(2, slotCount - 1)) << 1;
        this.maxSlots = n;
        this.slots = new AtomicReferenceArray<>(Math.min(FIRST_SLOTS, n));
        this.byteBudget = byteBudget;
        this.fullChunkBytes = (int) Math.min(Integer.MAX_VALUE - 16,
                Math.max(Math.min(byteBudget, FIRST_CHUNK_BYTES), byteBudget / CHUNKS_PER_BUDGET));
        this.nextChunkBytes = Math.min(FIRST_CHUNK_BYTES, fullChunkBytes);
    }

    /** Writer: caches a published batch (a copy of it). Batches must be added in offset order. */
    void add(byte[] batch) {
        if (byteBudget == 0 || batch.length > byteBudget) {
            clear();
            return;
        }
        long h = head;
        long t = tail;
        long evictFrom = t;
        if (h - t >= slots.length() && slots.length() < maxSlots) {
            grow(t, h);
        }
        AtomicReferenceArray<Entry> ring = slots;
        int mask = ring.length() - 1;
        while (h - t >= ring.length() || (bytes + batch.length > byteBudget && t < h)) {
            Entry old = ring.get((int) (t & mask));
            bytes -= old == null ? 0 : old.length;
            t++;
        }
        tail = t; // published before any memory is reused, so readers treat the old sequences as gone
        release(evictFrom, t);
        Entry entry = store(batch);
        ring.set((int) (h & mask), entry);
        bytes += batch.length;
        head = h + 1;
    }

    /**
     * Writer: replaces the ring by one twice its size holding the batches of sequences [t, h). Published before
     * the head moves on, so a reader that sees a newer head sees this ring too.
     */
    private void grow(long t, long h) {
        AtomicReferenceArray<Entry> old = slots;
        AtomicReferenceArray<Entry> bigger = new AtomicReferenceArray<>(old.length() * 2);
        int oldMask = old.length() - 1;
        int newMask = bigger.length() - 1;
        for (long seq = t; seq < h; seq++) {
            bigger.set((int) (seq & newMask), old.get((int) (seq & oldMask)));
        }
        slots = bigger;
    }

    /** Writer: the ring's current size (for tests). */
    int slotCapacity() {
        return slots.length();
    }

    /** Writer: copies {@code batch} into chunk memory (or keeps an oversized one as it is). */
    private Entry store(byte[] batch) {
        long base = BatchDescriptor.baseOffset(batch);
        long last = base + BatchDescriptor.lastOffsetDelta(batch);
        if (batch.length > fullChunkBytes) {
            Chunk own = new Chunk(batch, false);
            own.live = 1;
            return new Entry(own, 0, 0, batch.length, base, last);
        }
        if (current == null || current.data.length - current.used < batch.length) {
            Chunk full = current;
            current = nextChunk(batch.length);
            if (full != null && full.live == 0) {
                retire(full);
            }
        }
        Chunk c = current;
        int pos = c.used;
        System.arraycopy(batch, 0, c.data, pos, batch.length);
        c.used = pos + batch.length;
        c.live++;
        return new Entry(c, c.generation, pos, batch.length, base, last);
    }

    private Chunk nextChunk(int atLeast) {
        Chunk reused = spare.pollFirst();
        if (reused != null) {
            reused.used = 0;
            return reused; // full-size, so large enough for any batch stored in chunks
        }
        int size = (int) Math.min(fullChunkBytes, Math.max(nextChunkBytes, Long.highestOneBit(atLeast - 1L) << 1));
        nextChunkBytes = (int) Math.min(fullChunkBytes, 2L * size);
        allocatedBytes += size;
        return new Chunk(new byte[size], true);
    }

    /** Writer: the batches of sequences [from, to) left the cache. */
    private void release(long from, long to) {
        AtomicReferenceArray<Entry> ring = slots;
        int mask = ring.length() - 1;
        for (long seq = from; seq < to; seq++) {
            int slot = (int) (seq & mask);
            Entry e = ring.get(slot);
            // Let go of what was evicted: a slot left pointing at it would keep its memory reachable.
            ring.set(slot, null);
            if (e != null && --e.chunk.live == 0 && e.chunk != current) {
                retire(e.chunk);
            }
        }
    }

    /**
     * Writer: a chunk that holds no cached batch any more. Its generation changes first, so a reader that pins it
     * from now on sees its entries gone; only if no reader held it before that may its memory be written again.
     */
    private void retire(Chunk c) {
        c.generation++;
        if (!c.pooled) {
            return;
        }
        // The oldest chunk retires about when the newest fills, so a spare or two is all reuse needs; what the
        // cache holds is bounded by the budget (every other chunk holds a cached batch) and these spares.
        if (c.pins.get() == 0 && c.data.length == fullChunkBytes && spare.size() < MAX_SPARE_CHUNKS) {
            spare.addLast(c);
        }
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
        release(t, h);
        bytes = 0;
        if (current != null) {
            Chunk c = current;
            current = null;
            if (c.live == 0) {
                retire(c);
            }
        }
    }

    /** Writer: bytes of chunk memory this cache allocated over its life (for tests). */
    long allocatedBytes() {
        return allocatedBytes;
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
        AtomicReferenceArray<Entry> ring = slots; // after the head: at least the ring that head was written with
        int mask = ring.length() - 1;
        long seq = find(ring, from, tail, h);
        if (seq < 0) {
            return from;
        }
        long next = from;
        for (; seq < h && next < end && !sink.isFull(); seq++) {
            Entry e = ring.get((int) (seq & mask));
            if (e == null || e.last < next || e.base > next) {
                break; // an evicted or reused slot: the caller reads the rest from disk
            }
            Chunk c = e.chunk;
            c.pins.incrementAndGet();
            try {
                if (c.generation != e.generation) {
                    break; // retired since: its memory may be another batch's by now
                }
                // Pinned and of its generation: the writer leaves these bytes alone until it is unpinned.
                long after = sink.take(ByteBuffer.wrap(c.data).order(ByteOrder.LITTLE_ENDIAN), e.pos, next, file, 0);
                next = after;
                if (after <= e.last) {
                    break; // stopped inside the batch by a limit
                }
            } finally {
                c.pins.decrementAndGet();
            }
        }
        return next;
    }

    /** The sequence number of the cached batch containing {@code offset}, or -1. */
    private long find(AtomicReferenceArray<Entry> ring, long offset, long t, long h) {
        int mask = ring.length() - 1;
        long lo = t;
        long hi = h - 1;
        while (lo <= hi) {
            long mid = (lo + hi) >>> 1;
            Entry e = ring.get((int) (mid & mask));
            if (e == null) {
                return -1;
            }
            if (offset < e.base) {
                hi = mid - 1;
            } else if (offset > e.last) {
                lo = mid + 1;
            } else {
                return mid < tail ? -1 : mid;
            }
        }
        return -1;
    }
}
