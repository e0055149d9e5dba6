package io.mikyu.engine.internal.log;

import io.mikyu.engine.internal.files.FileChannels;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * The store's bound on open segment files: a store with ten thousand queues would otherwise hold a descriptor per
 * segment (two once it is read) for as long as it runs. Channels are opened on use ({@link #acquire}) and, when
 * more than {@code maxOpen} are open, the least recently used idle ones are closed; the next use reopens them.
 *
 * <p>A channel is never closed under a user (between {@link #acquire} and {@link #release}), nor while its
 * segment has data not yet fsynced: an fsync must go through a descriptor that was open when the data was
 * written, or a write-back error could go unreported to it. So the bound is soft: busy or unsynced channels may
 * exceed it until they are released or flushed. A reopen checks it finds the same file (a compaction moves a new
 * file over a segment's path) and fails as a closed channel if not.
 */
public final class OpenSegmentFiles {

    /** The default bound: room for the active segments of many queues, far below a default limit of descriptors. */
    public static final int DEFAULT_MAX_OPEN = 1024;

    private final int maxOpen;
    /** Open channels, least recently used first. */
    private final LinkedHashMap<SegmentFile, Boolean> open = new LinkedHashMap<>(64, 0.75f, true);
    private long opened;
    private long closedToMakeRoom;

    public OpenSegmentFiles(int maxOpen) {
        if (maxOpen < 1) {
            throw new IllegalArgumentException("the bound on open segment files must be at least 1, not " + maxOpen);
        }
        this.maxOpen = maxOpen;
    }

    /** A channel of {@code file} this cache manages, not yet open. */
    SegmentFile register(java.nio.file.Path file, boolean writable, BooleanSupplier unsynced) {
        return new SegmentFile(file, writable, unsynced);
    }

    /** Hands an already open channel (recovery's or a new segment's) to the cache. */
    synchronized void adopt(SegmentFile f, FileChannel channel) throws IOException {
        f.channel = channel;
        f.fileKey = fileKey(f);
        open.put(f, Boolean.TRUE);
        opened++;
        makeRoom();
    }

    /**
     * The open channel of {@code f}, opened if needed; pair with {@link #release}.
     *
     * @throws ClosedChannelException if the segment was closed, or its file replaced since it was first opened
     */
    synchronized FileChannel acquire(SegmentFile f) throws IOException {
        if (f.closed) {
            throw new ClosedChannelException();
        }
        f.users++; // first, so that making room for it cannot close it
        try {
            if (f.channel == null || !f.channel.isOpen()) { // an interrupted reader closes its channel: reopen it
                reopen(f);
            } else {
                open.get(f); // most recently used
            }
        } catch (IOException | RuntimeException e) {
            f.users--;
            throw e;
        }
        return f.channel;
    }

    synchronized void release(SegmentFile f) {
        f.users--;
        if (open.size() > maxOpen) {
            makeRoom();
        }
    }

    /** Closes {@code f} for good (its segment is closed or deleted); later uses fail as closed. */
    synchronized void close(SegmentFile f) throws IOException {
        f.closed = true;
        open.remove(f);
        FileChannel ch = f.channel;
        f.channel = null;
        if (ch != null) {
            ch.close();
        }
    }

    /** Channels open now. */
    public synchronized int openCount() {
        return open.size();
    }

    /** Channels closed to keep within the bound since the store opened (each costs a reopen if used again). */
    public synchronized long closedToMakeRoom() {
        return closedToMakeRoom;
    }

    public int maxOpen() {
        return maxOpen;
    }

    private void reopen(SegmentFile f) throws IOException {
        open.remove(f);
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
        open.put(f, Boolean.TRUE);
        opened++;
        makeRoom();
    }

    /** Closes idle, synced channels, least recently used first, until within the bound or none is left to close. */
    private void makeRoom() {
        Iterator<SegmentFile> it = open.keySet().iterator();
        while (open.size() > maxOpen && it.hasNext()) {
            SegmentFile f = it.next();
            if (f.users > 0 || (f.writable && f.unsynced.getAsBoolean())) {
                continue;
            }
            it.remove();
            FileChannel ch = f.channel;
            f.channel = null;
            closedToMakeRoom++;
            try {
                ch.close();
            } catch (IOException ignored) {
                // read-only or synced: nothing is lost by a close that fails
            }
        }
    }

    private static Object fileKey(SegmentFile f) throws IOException {
        Object key = Files.readAttributes(f.file, BasicFileAttributes.class).fileKey();
        return key != null ? key : f.file; // no inode where the platform has none: trust the path
    }
}
