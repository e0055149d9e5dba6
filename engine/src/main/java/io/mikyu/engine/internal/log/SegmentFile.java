package io.mikyu.engine.internal.log;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * One file channel of a segment (its writer's, or its readers' own), opened on use and closed by
 * {@link OpenSegmentFiles} when too many are open and this one is idle.
 */
final class SegmentFile {

    /** {@link #users} while the cache closes the channel: users wait for it on the cache's lock. */
    static final int CLOSING = -1;

    final Path file;
    final boolean writable;
    /** Data written and not yet fsynced: such a channel is never closed to make room (see OpenSegmentFiles). */
    final BooleanSupplier unsynced;

    /** The open channel, or null; set under the cache's lock, read without it by users holding a count. */
    volatile FileChannel channel;
    /** Threads using the channel now, or {@link #CLOSING}; a channel is closed to make room only from 0. */
    final AtomicInteger users = new AtomicInteger();
    /** {@link System#nanoTime()} of the last use: the least recently used idle channels are closed first. */
    volatile long lastUse;
    /** Closed for good (its segment closed or deleted). */
    volatile boolean closed;
    /** The file's identity when first opened, under the cache's lock: a reopen must find the same file. */
    Object fileKey;

    SegmentFile(Path file, boolean writable, BooleanSupplier unsynced) {
        this.file = file;
        this.writable = writable;
        this.unsynced = unsynced;
    }

    @Override
    public String toString() {
        return file + (writable ? " (write)" : " (read)");
    }
}
