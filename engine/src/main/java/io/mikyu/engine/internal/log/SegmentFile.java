package io.mikyu.engine.internal.log;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * One file channel of a segment (its writer's or its readers'), opened on use and closed by {@link OpenSegmentFiles}
 * when too many are open and this one is idle. The fields are guarded by the {@link OpenSegmentFiles} it belongs to.
 */
final class SegmentFile {

    final Path file;
    final boolean writable;
    /** Data written and not yet fsynced: such a channel is never closed to make room (see OpenSegmentFiles). */
    final BooleanSupplier unsynced;

    FileChannel channel;
    /** The file's identity when first opened: a reopen must find the same file, not one moved over it. */
    Object fileKey;
    int users;
    boolean closed;

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
