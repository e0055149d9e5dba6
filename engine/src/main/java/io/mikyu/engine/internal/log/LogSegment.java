package io.mikyu.engine.internal.log;

import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.files.FileChannels;
import io.mikyu.engine.internal.format.SegmentDescriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One segment file of a log queue and its index.
 *
 * <p>The active segment is written by the writer thread with positional writes and read with positional reads
 * below its published {@link #size()}. A sealed segment never changes again and is read through one read-only
 * memory mapping. Fields marked "writer" are touched only by the writer thread (or by recovery before the queue
 * is visible).
 *
 * <p>Its file channels (the writer's, and the readers' own) are opened and closed by the store's
 * {@link OpenSegmentFiles}, which keeps the number open bounded: every use acquires the channel there and
 * releases it after.
 */
final class LogSegment {

    /** Zeros to preallocate with; shared read-only, duplicated per use. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 20);

    final Path file;
    final Path indexFile;
    final long baseOffset;
    final SegmentIndex index;
    private final OpenSegmentFiles files;
    /** The writer's channel: positional writes, fsync, truncate. */
    private final SegmentFile writeFile;

    private volatile long size;
    private volatile long nextOffset;
    private volatile boolean sealed;
    private volatile MappedByteBuffer mapped;
    /**
     * Readers' own channel. An interrupted thread's FileChannel read closes the channel; with a channel of their
     * own, an interrupted consumer can only close this one (reopened on next use), never the writer's.
     */
    private final SegmentFile readFile;

    /** Writer: end of the zero-filled region already in the file. */
    long allocated;
    /** Writer: log bytes written since the last index entry. */
    long bytesSinceIndexEntry;
    /**
     * Writer: the index file on disk still describes this active segment (it was opened after a clean close and
     * not written since). The first write deletes it first; a close with nothing written leaves it as it is.
     */
    private boolean indexFileCurrent;
    /**
     * Written since the last fsync; set by the writer, cleared by whoever fsyncs. Set only through
     * {@link #markDirty()}: the flusher walks the logs only when the store-wide count of marks moved.
     */
    private volatile boolean dirty;

    private LogSegment(Path file, long baseOffset, OpenSegmentFiles files, SegmentIndex index, long size,
                       long nextOffset, long allocated, boolean sealed) {
        this.file = file;
        this.indexFile = file.resolveSibling(SegmentDescriptor.indexFileName(baseOffset));
        this.baseOffset = baseOffset;
        this.files = files;
        this.writeFile = files.register(file, true, () -> dirty);
        this.readFile = files.register(file, false, () -> false);
        this.index = index;
        this.size = size;
        this.nextOffset = nextOffset;
        this.allocated = allocated;
        this.sealed = sealed;
        this.bytesSinceIndexEntry = Long.MAX_VALUE / 2; // the first batch always gets an entry
    }

    /** Creates a new, empty segment file starting at {@code baseOffset}. */
    static LogSegment create(Path dir, long baseOffset, OpenSegmentFiles files) throws IOException {
        Path file = dir.resolve(SegmentDescriptor.fileName(baseOffset));
        FileChannel ch = FileChannels.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            writeFully(ch, SegmentDescriptor.header(baseOffset, System.currentTimeMillis()), 0);
            // The new file's directory entry must be durable before a sync append in it is acknowledged.
            Directories.fsync(dir);
            LogSegment segment = new LogSegment(file, baseOffset, files, new SegmentIndex(baseOffset),
                    SegmentDescriptor.HEADER_LENGTH, baseOffset, SegmentDescriptor.HEADER_LENGTH, false);
            segment.markDirty();
            files.adopt(segment.writeFile, ch);
            return segment;
        } catch (IOException | RuntimeException e) {
            ch.close();
            Files.deleteIfExists(file);
            throw e;
        }
    }

    /** Writes an empty segment's file (its header) without fsyncing it or its directory; see {@link #create}. */
    static void writeEmpty(Path dir, long baseOffset) throws IOException {
        Path file = dir.resolve(SegmentDescriptor.fileName(baseOffset));
        try (FileChannel ch = FileChannels.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            writeFully(ch, SegmentDescriptor.header(baseOffset, System.currentTimeMillis()), 0);
        }
    }

    /** Wraps a recovered segment file; {@code channel} (open for reading and writing) is handed to {@code files}. */
    static LogSegment recovered(Path file, long baseOffset, FileChannel channel, OpenSegmentFiles files,
                                SegmentIndex index, long size, long nextOffset, long fileSize, boolean sealed)
            throws IOException {
        LogSegment segment = new LogSegment(file, baseOffset, files, index, size, nextOffset, fileSize, sealed);
        files.adopt(segment.writeFile, channel);
        return segment;
    }

    /** Bytes of valid data, header included; readers never look past it. */
    long size() {
        return size;
    }

    /** One past the last offset stored in this segment ({@link #baseOffset} when empty). */
    long nextOffset() {
        return nextOffset;
    }

    boolean isSealed() {
        return sealed;
    }

    boolean isEmpty() {
        return size <= SegmentDescriptor.HEADER_LENGTH;
    }

    long maxTimestamp() {
        return index.maxTimestamp();
    }

    /**
     * Recovery: the active segment's index file, which matched it, stays on disk until the segment is written to:
     * opening and closing a store whose queues saw no write then touches none of their files.
     */
    void keepIndexFileUntilWritten() {
        indexFileCurrent = true;
    }

    /** Writer, before any write to the active segment: an index file left from a clean close would be stale. */
    private void dropStaleIndexFile() throws IOException {
        if (indexFileCurrent) {
            Files.deleteIfExists(indexFile);
            indexFileCurrent = false;
        }
    }

    /** Writer: makes sure zero-filled space reaches {@code end}, growing by at least {@code chunk}. */
    void preallocate(long end, long chunk) throws IOException {
        if (end <= allocated) {
            return;
        }
        dropStaleIndexFile();
        long target = Math.max(end, allocated + chunk);
        long pos = allocated;
        FileChannel channel = files.acquire(writeFile);
        try {
            while (pos < target) {
                ByteBuffer z = ZEROS.duplicate();
                z.limit((int) Math.min(z.capacity(), target - pos));
                pos += channel.write(z, pos);
            }
        } finally {
            files.release(writeFile);
        }
        allocated = target;
    }

    /** Writer: writes {@code src} at the current end. Does not publish; see {@link #publish}. */
    void write(ByteBuffer src, long position) throws IOException {
        dropStaleIndexFile();
        FileChannel channel = files.acquire(writeFile);
        try {
            writeFully(channel, src, position);
        } finally {
            files.release(writeFile);
        }
        allocated = Math.max(allocated, position + src.limit());
        markDirty();
    }

    /** Writer: writes {@code srcs} back to back at {@code position} with gathering writes (no copy). */
    void write(ByteBuffer[] srcs, long position, long bytes) throws IOException {
        dropStaleIndexFile();
        FileChannel channel = files.acquire(writeFile);
        try {
            channel.position(position);
            long done = 0;
            while (done < bytes) {
                done += channel.write(srcs);
            }
        } finally {
            files.release(writeFile);
        }
        allocated = Math.max(allocated, position + bytes);
        markDirty();
    }

    /** Writer: makes bytes up to {@code newSize} and offsets below {@code newNextOffset} visible to readers. */
    void publish(long newSize, long newNextOffset) {
        this.nextOffset = newNextOffset;
        this.size = newSize;
    }

    /** fsync of the data (and of the file length only if it changed). Clears the mark first: see BackgroundFlusher. */
    void force() throws IOException {
        dirty = false;
        sync(false);
    }

    /** An fsync whose failure is told apart from other I/O errors: it stops the log. */
    private void sync(boolean metaData) throws IOException {
        FileChannel channel = files.acquire(writeFile);
        try {
            channel.force(metaData);
        } catch (IOException e) {
            throw new FsyncFailedException(file.toString(), e);
        } finally {
            files.release(writeFile);
        }
    }

    private void truncate(long length) throws IOException {
        FileChannel channel = files.acquire(writeFile);
        try {
            channel.truncate(length);
        } finally {
            files.release(writeFile);
        }
    }

    /**
     * Writer: seals the segment: cuts the preallocated tail, fsyncs, writes the complete index. From then on the
     * segment is read through a memory mapping.
     */
    void seal() throws IOException {
        if (sealed) {
            return;
        }
        truncate(size);
        sync(true);
        index.writeTo(indexFile, size, nextOffset);
        allocated = size;
        dirty = false;
        sealed = true;
    }

    /** Writer, on clean close: like {@link #seal()} for the active segment, so reopening needs no scan. */
    void closeCleanly() throws IOException {
        if (indexFileCurrent) {
            return; // not written since a clean close: file and index are as that close left them
        }
        truncate(size);
        sync(true);
        index.writeTo(indexFile, size, nextOffset);
        allocated = size;
        dirty = false;
    }

    /**
     * A little-endian buffer whose index 0 is file position {@code position}, holding at least
     * {@code Math.min(wanted, limit - position)} bytes. Sealed segments return a slice of the mapping
     * (reaching to {@code limit}); the active one reads into a new heap buffer.
     */
    ByteBuffer window(long position, int wanted, long limit) {
        int length = (int) Math.min(wanted, limit - position);
        if (sealed) {
            MappedByteBuffer m = mapping();
            return m.slice((int) position, (int) (limit - position)).order(ByteOrder.LITTLE_ENDIAN);
        }
        ByteBuffer buf = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        try {
            FileChannel ch = files.acquire(readFile);
            try {
                while (buf.hasRemaining()) {
                    int n = ch.read(buf, position + buf.position());
                    if (n < 0) {
                        break;
                    }
                }
            } finally {
                files.release(readFile);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file + " at byte " + position, e);
        }
        buf.flip();
        return buf;
    }

    private MappedByteBuffer mapping() {
        MappedByteBuffer m = mapped;
        if (m == null) {
            synchronized (this) {
                m = mapped;
                if (m == null) {
                    try {
                        FileChannel ch = files.acquire(readFile);
                        try {
                            m = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
                        } finally {
                            files.release(readFile);
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException("mapping " + file, e);
                    }
                    mapped = m;
                }
            }
        }
        return m;
    }

    /** Closes the file; the mapping, if any, goes when the last reader drops it. */
    void close() throws IOException {
        try {
            files.close(readFile);
        } finally {
            files.close(writeFile);
        }
    }

    /** Closes and deletes the segment and its index. */
    void delete() throws IOException {
        close();
        Files.deleteIfExists(file);
        Files.deleteIfExists(indexFile);
    }

    static void writeFully(FileChannel ch, ByteBuffer src, long position) throws IOException {
        long pos = position;
        while (src.hasRemaining()) {
            pos += ch.write(src, pos);
        }
    }

    @Override
    public String toString() {
        return file.getFileName() + "[" + baseOffset + ".." + nextOffset + ", " + size + " bytes"
                + (sealed ? ", sealed" : "") + "]";
    }

    /** Written since the last fsync. */
    boolean isDirty() {
        return dirty;
    }

    /** Sets the dirty mark, then counts it store-wide (in that order: see {@link OpenSegmentFiles#dirtiedCount}). */
    void markDirty() {
        dirty = true;
        files.dirtied();
    }
}
