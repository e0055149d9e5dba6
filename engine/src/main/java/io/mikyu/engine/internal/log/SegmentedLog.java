package io.mikyu.engine.internal.log;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Record;
import io.mikyu.engine.StorageFailedException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchReader;
import io.mikyu.engine.internal.format.RecordSink;
import io.mikyu.engine.internal.format.SegmentDescriptor;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.internal.write.WriteTarget;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The storage of one log queue: its segments, the write side the writer thread drives, and the read path.
 *
 * <p>Visibility: a reader first loads {@link #endOffset()} (volatile) and never returns records at or beyond it.
 * The writer publishes a cycle by stamping segment sizes, filling the cache, and finally storing the end offset,
 * so everything below the end offset a reader saw is readable, from the cache or the files.
 */
public final class SegmentedLog implements WriteTarget {

    /** Bytes read from the active segment per positional read. */
    private static final int READ_WINDOW = 256 * 1024;

    private final String name;
    private final String kind;
    private final Path dir;
    private final LogQueueConfig config;
    private final EngineConfig engine;
    private final ByteBuffer scratch;
    final ConcurrentSkipListMap<Long, LogSegment> segments;
    private final RecentBatchCache cache;
    final ReentrantLock maintenance = new ReentrantLock();

    private volatile LogSegment active;
    private volatile long endOffset;
    private volatile long startOffset;
    /** Every record below this offset is known to be fsynced (a lower bound: see {@link #durableEnd()}). */
    private final java.util.concurrent.atomic.AtomicLong durableEnd = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean open = true;
    /** Set by the first failed fsync; from then on nothing is written, acknowledged or read (see failure()). */
    private volatile FsyncFailedException fsyncFailure;

    private final ReentrantLock waitLock = new ReentrantLock();
    private final Condition appended = waitLock.newCondition();
    private final AtomicInteger waiters = new AtomicInteger();

    // writer-thread state
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

    // counters
    private volatile long appendedRecords;
    private volatile long appendedBytes;
    private final LongAdder readRecords = new LongAdder();
    private final LongAdder cacheHits = new LongAdder();
    private final LongAdder cacheMisses = new LongAdder();

    SegmentedLog(String name, String kind, Path dir, LogQueueConfig config, EngineConfig engine, ByteBuffer scratch,
                 ConcurrentSkipListMap<Long, LogSegment> segments) {
        this.name = name;
        this.kind = kind;
        this.dir = dir;
        this.config = config;
        this.engine = engine;
        this.scratch = scratch;
        this.segments = segments;
        this.cache = new RecentBatchCache(4096, engine.cacheBytesPerQueue());
        this.active = segments.lastEntry().getValue();
        this.startOffset = segments.firstKey();
        this.endOffset = active.nextOffset();
        this.writerNext = endOffset;
        this.writerSize = active.size();
        this.attemptedEnd = writerSize;
    }

    /**
     * Opens (recovering) the log in {@code dir}; see {@link LogRecovery}.
     *
     * @param kind what the log stores, for messages: "log queue" or "task queue"
     */
    public static SegmentedLog open(String name, String kind, Path dir, LogQueueConfig config, EngineConfig engine,
                                    ByteBuffer writerScratch, LogRecovery.Listener listener) throws IOException {
        return new SegmentedLog(name, kind, dir, config, engine, writerScratch,
                LogRecovery.recover(dir, config, engine, listener));
    }

    public String name() {
        return name;
    }

    public Path dir() {
        return dir;
    }

    public LogQueueConfig config() {
        return config;
    }

    public long endOffset() {
        return endOffset;
    }

    public long startOffset() {
        return startOffset;
    }

    // ------------------------------------------------------------------------------------------- write side

    @Override
    public long write(List<AppendRequest> requests) throws IOException {
        try {
            return writeRequests(requests);
        } catch (FsyncFailedException e) { // sealing a full segment on the way
            fsyncFailed(e);
            throw e;
        }
    }

    private long writeRequests(List<AppendRequest> requests) throws IOException {
        LogSegment seg = active;
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
                        throw new io.mikyu.engine.internal.write.PartialWriteException(i, e);
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
        active.seal();
        return startNextSegment();
    }

    /** Makes the segment after the sealed active one the active one. */
    private LogSegment startNextSegment() throws IOException {
        LogSegment next = LogSegment.create(dir, writerNext);
        attemptedEnd = SegmentDescriptor.HEADER_LENGTH;
        writerSize = SegmentDescriptor.HEADER_LENGTH;
        segments.put(next.baseOffset, next);
        active = next;
        return next;
    }

    @Override
    public void force() throws IOException {
        RuntimeException failed = failure();
        if (failed != null) {
            throw failed;
        }
        // What was published before the fsync began is covered by it (segments rolled meanwhile were sealed, so
        // fsynced); read first, so a concurrent write is never counted.
        long published = endOffset;
        try {
            active.force();
        } catch (FsyncFailedException e) {
            fsyncFailed(e);
            throw e;
        }
        durableEnd.accumulateAndGet(published, Math::max);
    }

    /** Writer thread, after its own force: everything it wrote, published or not, is durable. */
    @Override
    public void forcedInCycle() {
        durableEnd.accumulateAndGet(writerNext, Math::max);
    }

    /**
     * Every record below this offset is fsynced. A lower bound: records fsynced by a seal or before this process
     * opened the log count from the next fsync on, which covers them too.
     */
    public long durableEnd() {
        return durableEnd.get();
    }

    /**
     * fsyncs what has been appended so far and returns the end offset below which every record is now durable:
     * for compaction, which must not remove a durable record for a newer one that a power loss could still take.
     * The end is read before the active segment: every record below it was written before the fsync, in that
     * segment or in one sealed (fsynced) before it.
     */
    long forceToEnd() throws IOException {
        long end = endOffset;
        force();
        return end;
    }

    /**
     * After a failed fsync the kernel may have dropped the dirty pages and cleared the error, so a later fsync
     * would succeed without having written them: acknowledging anything on top would be a lie. The log stops
     * (writes, acknowledgements and reads fail) until the store is reopened and recovers it from the files.
     */
    private void fsyncFailed(FsyncFailedException e) {
        if (fsyncFailure == null) {
            fsyncFailure = e;
        }
    }

    /** Why this log is stopped ({@link StorageFailedException}), or {@code null} while it is healthy. */
    @Override
    public RuntimeException failure() {
        FsyncFailedException e = fsyncFailure;
        if (e == null) {
            return null;
        }
        return new StorageFailedException(describe() + " is stopped: " + e.getMessage()
                + "; what it had not fsynced may be lost. Close and reopen the store to recover it from its files",
                e);
    }

    @Override
    public boolean isDirty() {
        return active.dirty;
    }

    @Override
    public void publish() {
        LogSegment seg = active;
        seg.publish(writerSize, writerNext);
        long bytes = 0;
        for (byte[] batch : unpublished) {
            cache.add(batch);
            bytes += batch.length;
        }
        unpublished.clear();
        appendedRecords += pendingRecords;
        appendedBytes += bytes;
        pendingRecords = 0;
        endOffset = writerNext;
        if (waiters.get() > 0) {
            signalWaiters();
        }
    }

    @Override
    public void abort() {
        LogSegment seg = active;
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
        endOffset = Math.max(endOffset, writerNext);
        // Zero what a partial write may have left, so recovery cannot resurrect a batch its producer saw fail.
        try {
            long end = Math.min(attemptedEnd, seg.allocated);
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(1 << 20, Math.max(0, end - writerSize)));
            for (long p = writerSize; p < end; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), end - p));
                p += seg.channel().write(zeros, p);
            }
            if (end > writerSize) {
                seg.dirty = true; // a seal that failed may have fsynced what the zeros hide: the next fsync covers them
            }
        } catch (IOException | RuntimeException ignored) {
            // best effort: the next successful write overwrites the same bytes anyway
        }
        attemptedEnd = writerSize;
    }

    @Override
    public String describe() {
        return kind + " '" + name + "'";
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    // -------------------------------------------------------------------------------------------- read side

    /** Records from {@code from} on; see {@link io.mikyu.engine.LogQueue#read(long, int, long)}. */
    public List<Record> read(long from, int maxRecords, long maxBytes) {
        if (maxRecords <= 0) {
            checkOpen();
            return List.of();
        }
        List<Record> out = new ArrayList<>(Math.min(maxRecords, 256));
        read(from, RecordSink.toList(out, maxRecords, maxBytes));
        return out;
    }

    /**
     * Walks records from {@code from} on into {@code sink}: from the ring cache while it holds them, then from the
     * segment files. Returns the offset to continue from.
     */
    public long read(long from, RecordSink sink) {
        checkOpen();
        long end = endOffset;
        long next = Math.max(from, startOffset);
        if (next >= end || sink.isFull()) {
            return next;
        }
        long afterCache = cache.read(next, end, sink, dir);
        if (sink.taken() == 0) {
            cacheMisses.increment();
        } else {
            cacheHits.increment();
        }
        long after = afterCache;
        if (!sink.isFull() && afterCache < end) {
            after = readSegments(afterCache, end, sink);
        }
        readRecords.add(sink.taken());
        return after;
    }

    /** Reads from the segment files only, bypassing the cache and the counters (for compaction). */
    List<Record> readFromSegments(long from, int maxRecords, long maxBytes) {
        checkOpen();
        long end = endOffset;
        List<Record> out = new ArrayList<>();
        long next = Math.max(from, startOffset);
        if (next < end) {
            readSegments(next, end, RecordSink.toList(out, maxRecords, maxBytes));
        }
        return out;
    }

    /** After compaction rewrote sealed segments: the cache may still hold their old records. */
    void invalidateCacheBelow(long offset) {
        cache.invalidateBelow(offset);
    }

    private long readSegments(long from, long end, RecordSink sink) {
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
                if (!open) {
                    throw new StoreClosedException(describe() + " is closed");
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

    /** Receives each batch of a {@link #replay}: its type and its records. */
    public interface BatchConsumer {
        void accept(byte type, List<Record> records);
    }

    /**
     * Reads every batch from {@code from} to the end offset in order, straight from the segment files, checking
     * checksums. Task queues rebuild their state this way on open.
     */
    public void replay(long from, BatchConsumer consumer) {
        long end = endOffset;
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

    /**
     * {@code true} if a batch of {@code type} written by transaction {@code producerId} lies at or after {@code from}: recovery
     * asks this before applying a committed transaction's writes to this log, so none is applied twice. Reads
     * batch headers only.
     */
    public boolean containsProducer(long from, long producerId, byte type) {
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

    /** Waits up to {@code nanos} for the end offset to pass {@code offset}; returns the end offset then. */
    public long awaitBeyond(long offset, long nanos) throws InterruptedException {
        if (endOffset > offset || nanos <= 0) {
            return endOffset;
        }
        waiters.incrementAndGet();
        waitLock.lock();
        try {
            long remaining = nanos;
            while (endOffset <= offset && remaining > 0 && open) {
                remaining = appended.awaitNanos(remaining);
            }
        } finally {
            waitLock.unlock();
            waiters.decrementAndGet();
        }
        checkOpen();
        return endOffset;
    }

    private void signalWaiters() {
        waitLock.lock();
        try {
            appended.signalAll();
        } finally {
            waitLock.unlock();
        }
    }

    /** The first offset whose record timestamp is at or after {@code timestamp}, or the end offset. */
    public long offsetForTimestamp(long timestamp) {
        checkOpen();
        long end = endOffset;
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

    // ----------------------------------------------------------------------------------- maintenance & stats

    /** Removes whole sealed segments from the front; called under {@link #maintenance}. */
    long dropSegmentsBefore(LogSegment keepFrom) throws IOException {
        long removed = 0;
        for (LogSegment seg : segments.values()) {
            if (seg == keepFrom || seg == active) {
                break;
            }
            segments.remove(seg.baseOffset, seg);
            startOffset = segments.firstKey();
            removed += seg.nextOffset() - seg.baseOffset;
            seg.delete();
        }
        if (removed > 0) {
            Directories.fsync(dir);
        }
        return removed;
    }

    void setStartOffset(long offset) {
        startOffset = offset;
    }

    LogSegment activeSegment() {
        return active;
    }

    Collection<LogSegment> segmentList() {
        return segments.values();
    }

    EngineConfig engineConfig() {
        return engine;
    }

    public long bytesOnDisk() {
        long total = 0;
        for (LogSegment seg : segments.values()) {
            total += seg.size();
        }
        return total;
    }

    public int segmentCount() {
        return segments.size();
    }

    public long appendedRecords() {
        return appendedRecords;
    }

    public long appendedBytes() {
        return appendedBytes;
    }

    public long readRecords() {
        return readRecords.sum();
    }

    public long cacheHits() {
        return cacheHits.sum();
    }

    public long cacheMisses() {
        return cacheMisses.sum();
    }

    private void checkOpen() {
        if (!open) {
            throw new StoreClosedException(describe() + " is closed");
        }
        RuntimeException failed = failure();
        if (failed != null) {
            throw failed;
        }
    }

    /** Writer thread: stops accepting appends; on a clean close makes the next open need no scan. */
    public void close(boolean clean) throws IOException {
        if (!open) {
            return;
        }
        open = false;
        signalWaiters();
        IOException first = null;
        // A log stopped by a failed fsync is not closed cleanly: its index must not vouch for data never fsynced.
        if (clean && fsyncFailure == null) {
            try {
                active.closeCleanly();
            } catch (IOException e) {
                first = e;
            }
        }
        for (LogSegment seg : segments.values()) {
            try {
                seg.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Waits for maintenance to finish; used before deletion. */
    public void awaitMaintenance() {
        try {
            if (maintenance.tryLock(30, TimeUnit.SECONDS)) {
                maintenance.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
