package io.mikyu.engine.internal.log;

import io.mikyu.engine.internal.files.FileChannels;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The store's bound on open segment files: a store with ten thousand queues would otherwise hold a descriptor per
 * segment (two once it is read) for as long as it runs. Channels are opened on use ({@link #acquire}); when more
 * than {@code maxOpen} are open, the least recently used idle ones are closed, at the next open or {@link #trim()}
 * (the store's timer); the next use reopens them.
 *
 * <p>Using an open channel takes no lock (a count on the channel, so the writer thread and readers do not contend
 * here); opening, closing and making room take this object's lock. A channel is never closed under a user (between
 * {@link #acquire} and {@link #release}), nor while its segment has data not yet fsynced: an fsync must go through
 * a descriptor that was open when the data was written, or a write-back error could go unreported to it. So the
 * bound is soft: busy or unsynced channels may exceed it until they are released or flushed. A reopen checks it
 * finds the same file (a compaction moves a new file over a segment's path) and fails as a closed channel if not.
 */
public final class OpenSegmentFiles {

    /** The default bound: room for the active segments of many queues, far below a default limit of descriptors. */
    public static final int DEFAULT_MAX_OPEN = 1024;

    private final int maxOpen;
    /** Where making room stops: an eighth under the bound, so that it runs once per several opens, not each. */
    private final int trimTo;
    /** Open channels; guarded by this. */
    private final Set<SegmentFile> open = new HashSet<>();
    private volatile int openCount;
    private volatile long closedToMakeRoom;
    /** Dirty marks set so far, by every segment of the store: the flusher walks the logs only when it moved. */
    private final AtomicLong dirtied = new AtomicLong();

    /** Called after a segment's dirty mark is set (see {@link #dirtiedCount()}). */
    void dirtied() {
        dirtied.incrementAndGet();
    }

    /**
     * How many dirty marks were set so far. A flusher that reads it before walking the logs, and finds it unchanged
     * at its next round, knows no mark was set since: any mark set after the read bumps it after being set.
     */
    public long dirtiedCount() {
        return dirtied.get();
    }

    public OpenSegmentFiles(int maxOpen) {
        if (maxOpen < 1) {
            throw new IllegalArgumentException("the bound on open segment files must be at least 1, not " + maxOpen);
        }
        this.maxOpen = maxOpen;
        this.trimTo = maxOpen - maxOpen / 8;
    }

    /** A channel of {@code file} this cache manages, not yet open. */
    SegmentFile register(Path file, boolean writable, BooleanSupplier unsynced) {
        return new SegmentFile(file, writable, unsynced);
    }

    /** Hands an already open channel (recovery's or a new segment's) to the cache. */
    synchronized void adopt(SegmentFile f, FileChannel channel) throws IOException {
        f.fileKey = fileKey(f);
        f.lastUse = System.nanoTime();
        f.channel = channel;
        added(f);
    }

    /**
     * The open channel of {@code f}, opened if needed; pair with {@link #release}.
     *
     * @throws ClosedChannelException if the segment was closed, or its file replaced since it was first opened
     */
    FileChannel acquire(SegmentFile f) throws IOException {
        int users = f.users.get();
        if (users >= 0 && f.users.compareAndSet(users, users + 1)) {
            FileChannel ch = f.channel; // cannot be closed to make room while counted
            if (ch != null && ch.isOpen() && !f.closed) {
                f.lastUse = System.nanoTime();
                return ch;
            }
            f.users.decrementAndGet();
        }
        return acquireOpening(f);
    }

    void release(SegmentFile f) {
        f.users.decrementAndGet();
    }

    private synchronized FileChannel acquireOpening(SegmentFile f) throws IOException {
        if (f.closed) {
            throw new ClosedChannelException();
        }
        f.users.incrementAndGet(); // never CLOSING here: only makeRoom sets it, under this lock, and resets it
        try {
            FileChannel ch = f.channel;
            if (ch == null || !ch.isOpen()) { // closed to make room, or by an interrupted reader: reopen
                reopen(f);
            }
        } catch (IOException | RuntimeException e) {
            f.users.decrementAndGet();
            throw e;
        }
        f.lastUse = System.nanoTime();
        return f.channel;
    }

    /** Closes {@code f} for good (its segment is closed or deleted); later uses fail as closed. */
    synchronized void close(SegmentFile f) throws IOException {
        f.closed = true;
        removed(f);
        FileChannel ch = f.channel;
        f.channel = null;
        if (ch != null) {
            ch.close();
        }
    }

    /** Closes idle, fsynced channels beyond the bound (those that were busy or unsynced at the last open). */
    public void trim() {
        if (openCount > maxOpen) {
            synchronized (this) {
                makeRoom();
            }
        }
    }

    /** Channels open now. */
    public int openCount() {
        return openCount;
    }

    /** Channels closed to keep within the bound since the store opened (each costs a reopen if used again). */
    public long closedToMakeRoom() {
        return closedToMakeRoom;
    }

    public int maxOpen() {
        return maxOpen;
    }

    private void reopen(SegmentFile f) throws IOException {
        removed(f);
        FileChannel ch = f.writable
                ? FileChannels.open(f.file, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(f.file, StandardOpenOption.READ);
        Object key;
        try {
            key = fileKey(f);
        } catch (NoSuchFileException e) {
            ch.close();
            throw e;
        }
        if (f.fileKey != null && !Objects.equals(f.fileKey, key)) {
            ch.close();
            throw new ClosedChannelException(); // compacted or deleted and recreated: this segment is gone
        }
        f.fileKey = key;
        f.channel = ch;
        added(f);
    }

    private void added(SegmentFile f) {
        open.add(f);
        openCount = open.size();
        if (openCount > maxOpen) {
            makeRoom();
        }
    }

    private void removed(SegmentFile f) {
        open.remove(f);
        openCount = open.size();
    }

    /** Closes idle, fsynced channels, least recently used first, until an eighth under the bound or none is left. */
    private void makeRoom() {
        List<SegmentFile> idle = new ArrayList<>();
        for (SegmentFile f : open) {
            if (f.users.get() == 0 && !(f.writable && f.unsynced.getAsBoolean())) {
                idle.add(f);
            }
        }
        idle.sort(Comparator.comparingLong(f -> f.lastUse));
        for (SegmentFile f : idle) {
            if (open.size() <= trimTo) {
                break;
            }
            if (!f.users.compareAndSet(0, SegmentFile.CLOSING)) {
                continue; // taken since
            }
            try {
                FileChannel ch = f.channel;
                f.channel = null;
                open.remove(f);
                closedToMakeRoom++;
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // read-only or synced: nothing is lost by a close that fails
                }
            } finally {
                f.users.set(0);
            }
        }
        openCount = open.size();
    }

    private static Object fileKey(SegmentFile f) throws IOException {
        Object key = Files.readAttributes(f.file, BasicFileAttributes.class).fileKey();
        return key != null ? key : f.file; // no inode where the platform has none: trust the path
    }
}
