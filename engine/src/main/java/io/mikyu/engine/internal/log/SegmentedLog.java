package io.mikyu.engine.internal.log;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Record;
import io.mikyu.engine.StorageFailedException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.format.RecordSink;
import io.mikyu.engine.internal.write.AppendRequest;
import io.mikyu.engine.internal.write.WriteTarget;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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
 *
 * <p>The write side is {@link SegmentWriter}'s (writer thread only), the reads of the files {@link SegmentReader}'s;
 * this class holds what both share and what other threads load: the segments, the cache, the offsets.
 */
public final class SegmentedLog implements WriteTarget {

    private final String name;
    private final String kind;
    private final Path dir;
    private final LogQueueConfig config;
    private final EngineConfig engine;
    final ConcurrentSkipListMap<Long, LogSegment> segments;
    private final RecentBatchCache cache;
    private final SegmentReader reader;
    private final SegmentWriter writer;
    final ReentrantLock maintenance = new ReentrantLock();

    /** Written by the writer thread only (on a roll). */
    volatile LogSegment active;
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
    /** The store's bound on open segment files, shared by every log of the store. */
    final OpenSegmentFiles files;

    // counters
    private volatile long appendedRecords;
    private volatile long appendedBytes;
    private final LongAdder readRecords = new LongAdder();
    private final LongAdder cacheHits = new LongAdder();
    private final LongAdder cacheMisses = new LongAdder();

    SegmentedLog(String name, String kind, Path dir, LogQueueConfig config, EngineConfig engine, ByteBuffer scratch,
                 OpenSegmentFiles files, ConcurrentSkipListMap<Long, LogSegment> segments) {
        this.name = name;
        this.files = files;
        this.kind = kind;
        this.dir = dir;
        this.config = config;
        this.engine = engine;
        this.segments = segments;
        this.cache = new RecentBatchCache(4096, engine.cacheBytesPerQueue());
        this.reader = new SegmentReader(this, segments, engine);
        this.active = segments.lastEntry().getValue();
        this.startOffset = segments.firstKey();
        this.endOffset = active.nextOffset();
        this.writer = new SegmentWriter(this, dir, config, engine, scratch, segments, cache);
    }

    /**
     * Opens (recovering) the log in {@code dir}; see {@link LogRecovery}.
     *
     * @param kind what the log stores, for messages: "log queue" or "task queue"
     * @param files the store's open segment files, which this log's segments open and close their channels through
     */
    public static SegmentedLog open(String name, String kind, Path dir, LogQueueConfig config, EngineConfig engine,
                                    ByteBuffer writerScratch, OpenSegmentFiles files, LogRecovery.Listener listener)
            throws IOException {
        return new SegmentedLog(name, kind, dir, config, engine, writerScratch, files,
                LogRecovery.recover(dir, config, engine, files, listener));
    }

    /**
     * Writes the first segment of a log about to be created into {@code dir}, a folder not yet published (see
     * {@code Directories.createAtomically}): the folder's fsync before its rename makes the file's entry durable,
     * so opening the log costs no directory fsync. The header is not fsynced: the first fsync of the segment
     * covers it, and a header lost before that is recreated on open (see {@link LogRecovery}).
     */
    public static void prepareFirstSegment(Path dir) throws IOException {
        LogSegment.writeEmpty(dir, 0);
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
            return writer.write(requests);
        } catch (FsyncFailedException e) { // sealing a full segment on the way
            fsyncFailed(e);
            throw e;
        }
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
        durableEnd.accumulateAndGet(writer.next(), Math::max);
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
        return active.isDirty();
    }

    @Override
    public void publish() {
        writer.publish();
    }

    /** The writer published a cycle: counters, then the end offset readers load first. */
    void published(long end, long records, long bytes) {
        appendedRecords += records;
        appendedBytes += bytes;
        endOffset = end;
        if (waiters.get() > 0) {
            signalWaiters();
        }
    }

    @Override
    public void abort() {
        writer.abort();
    }

    /** The writer forgot a failed cycle: what readers may already have seen stays visible. */
    void aborted(long writerNext) {
        endOffset = Math.max(endOffset, writerNext);
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
        return walk(from, sink, true);
    }

    /**
     * As {@link #read(long, RecordSink)}, without counting the records as read or the cache's hits: housekeeping
     * (the large bodies' sweep) reads headers, and a queue's "out" must stay what its consumers took.
     */
    public long scan(long from, RecordSink sink) {
        return walk(from, sink, false);
    }

    private long walk(long from, RecordSink sink, boolean counted) {
        checkOpen();
        long end = endOffset;
        long next = Math.max(from, startOffset);
        if (next >= end || sink.isFull()) {
            return next;
        }
        long afterCache = cache.read(next, end, sink, dir);
        if (counted) {
            (sink.taken() == 0 ? cacheMisses : cacheHits).increment();
        }
        long after = afterCache;
        if (!sink.isFull() && afterCache < end) {
            after = reader.readSegments(afterCache, end, sink);
        }
        if (counted) {
            readRecords.add(sink.taken());
        }
        return after;
    }

    /** Reads from the segment files only, bypassing the cache and the counters (for compaction). */
    List<Record> readFromSegments(long from, int maxRecords, long maxBytes) {
        checkOpen();
        long end = endOffset;
        List<Record> out = new ArrayList<>();
        long next = Math.max(from, startOffset);
        if (next < end) {
            reader.readSegments(next, end, RecordSink.toList(out, maxRecords, maxBytes));
        }
        return out;
    }

    /** After compaction rewrote sealed segments: the cache may still hold their old records. */
    void invalidateCacheBelow(long offset) {
        cache.invalidateBelow(offset);
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
        reader.replay(from, endOffset, consumer);
    }

    /**
     * {@code true} if a batch of {@code type} written by transaction {@code producerId} lies at or after
     * {@code from}: recovery asks this before applying a committed transaction's writes to this log, so none is
     * applied twice. Reads batch headers only.
     */
    public boolean containsProducer(long from, long producerId, byte type) {
        return reader.containsProducer(from, producerId, type);
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
        return reader.offsetForTimestamp(timestamp, endOffset);
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
