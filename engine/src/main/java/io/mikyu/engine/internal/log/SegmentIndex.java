package io.mikyu.engine.internal.log;

import io.mikyu.engine.internal.format.FileHeader;
import io.mikyu.engine.internal.format.IndexDescriptor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The sparse offset and time index of one segment, held in memory and persisted as a {@code .idx} file
 * ({@link IndexDescriptor}).
 *
 * <p>One writer (the writer thread, or recovery) appends; readers search concurrently without locks. The writer
 * stores an entry, then publishes the arrays, then the count; a reader loads the count first and then the arrays,
 * so it never sees an entry the arrays do not hold. At one entry per 4 KiB of log, a 1 GiB segment needs 256 Ki
 * entries, 4 MiB of heap: small enough to keep in memory and skip mmap for indexes.
 */
final class SegmentIndex {

    private final long baseOffset;
    private volatile int[] relativeOffsets;
    private volatile int[] positions;
    private volatile long[] runningMaxTimestamps;
    private volatile int count;
    private long runningMax = Long.MIN_VALUE;

    SegmentIndex(long baseOffset) {
        this(baseOffset, 64);
    }

    private SegmentIndex(long baseOffset, int capacity) {
        this.baseOffset = baseOffset;
        this.relativeOffsets = new int[capacity];
        this.positions = new int[capacity];
        this.runningMaxTimestamps = new long[capacity];
    }

    int size() {
        return count;
    }

    /** Writer only: adds an entry for the batch at {@code position} with base {@code offset}. */
    void add(long offset, int position, long batchMaxTimestamp) {
        int n = count;
        runningMax = Math.max(runningMax, batchMaxTimestamp);
        if (n == relativeOffsets.length) {
            int capacity = n * 2;
            relativeOffsets = Arrays.copyOf(relativeOffsets, capacity);
            positions = Arrays.copyOf(positions, capacity);
            runningMaxTimestamps = Arrays.copyOf(runningMaxTimestamps, capacity);
        }
        relativeOffsets[n] = Math.toIntExact(offset - baseOffset);
        positions[n] = position;
        runningMaxTimestamps[n] = runningMax;
        count = n + 1;
    }

    /** Writer only: drops entries at or after {@code size} bytes (their write failed). */
    void truncateTo(long size) {
        int n = count;
        while (n > 0 && positions[n - 1] >= size) {
            n--;
        }
        count = n;
    }

    /** Writer only: folds a batch that gets no entry of its own into the running maximum timestamp. */
    void observeTimestamp(long batchMaxTimestamp) {
        runningMax = Math.max(runningMax, batchMaxTimestamp);
    }

    long maxTimestamp() {
        return runningMax;
    }

    /** The position of the last indexed batch starting at or before {@code offset}, or -1 if none. */
    int floorPosition(long offset) {
        int n = count;
        int[] rel = relativeOffsets;
        int[] pos = positions;
        long target = offset - baseOffset;
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (rel[mid] <= target) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? -1 : pos[found];
    }

    /**
     * A position from which scanning finds the first record with timestamp at or after {@code timestamp}: the entry
     * before the first whose running maximum reaches it. -1 means from the segment start; {@code Integer.MIN_VALUE}
     * that no indexed batch reaches it (only batches after the last entry might).
     */
    int timestampScanStart(long timestamp) {
        int n = count;
        long[] ts = runningMaxTimestamps;
        int[] pos = positions;
        int lo = 0;
        int hi = n - 1;
        int first = n;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (ts[mid] >= timestamp) {
                first = mid;
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        if (first == n) {
            return n == 0 ? -1 : pos[n - 1];
        }
        return first == 0 ? -1 : pos[first - 1];
    }

    /** Writes the whole index to {@code file} atomically (temp file, fsync, rename) with the complete flag. */
    void writeTo(Path file, long segmentBytes, long nextOffset) throws IOException {
        int n = count;
        ByteBuffer buf = ByteBuffer.allocate(IndexDescriptor.entryOffset(n)).order(ByteOrder.LITTLE_ENDIAN);
        FileHeader.INDEX.write(buf);
        buf.putInt(IndexDescriptor.FLAGS_OFFSET, IndexDescriptor.FLAG_COMPLETE);
        buf.putInt(IndexDescriptor.ENTRY_COUNT_OFFSET, n);
        buf.putLong(IndexDescriptor.BASE_OFFSET_OFFSET, baseOffset);
        buf.putLong(IndexDescriptor.SEGMENT_BYTES_OFFSET, segmentBytes);
        buf.putLong(IndexDescriptor.NEXT_OFFSET_OFFSET, nextOffset);
        buf.putLong(IndexDescriptor.MAX_TIMESTAMP_OFFSET, runningMax);
        for (int i = 0; i < n; i++) {
            int at = IndexDescriptor.entryOffset(i);
            buf.putInt(at + IndexDescriptor.ENTRY_RELATIVE_OFFSET, relativeOffsets[i]);
            buf.putInt(at + IndexDescriptor.ENTRY_POSITION, positions[i]);
            buf.putLong(at + IndexDescriptor.ENTRY_MAX_TIMESTAMP, runningMaxTimestamps[i]);
        }
        buf.putInt(IndexDescriptor.CRC_OFFSET, crc(buf));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = io.mikyu.engine.internal.files.FileChannels.open(tmp, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            buf.position(0);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        io.mikyu.engine.internal.files.Directories.fsync(file.getParent());
    }

    /** What a persisted index says about its segment. */
    record Loaded(SegmentIndex index, long segmentBytes, long nextOffset) {
    }

    /**
     * Loads a complete index; returns {@code null} with {@code problem[0]} set when the file is missing, incomplete,
     * fails its checksum, or its entries are out of order (the caller rebuilds it from the segment).
     */
    static Loaded load(Path file, long expectedBase, String[] problem) {
        ByteBuffer buf;
        try {
            if (!Files.exists(file)) {
                problem[0] = "missing";
                return null;
            }
            buf = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
            problem[0] = "unreadable: " + e.getMessage();
            return null;
        }
        try {
            FileHeader.INDEX.check(buf, file);
        } catch (RuntimeException e) {
            problem[0] = e.getMessage();
            return null;
        }
        if (buf.limit() < IndexDescriptor.HEADER_LENGTH) {
            problem[0] = "truncated header";
            return null;
        }
        int flags = buf.getInt(IndexDescriptor.FLAGS_OFFSET);
        int n = buf.getInt(IndexDescriptor.ENTRY_COUNT_OFFSET);
        if ((flags & IndexDescriptor.FLAG_COMPLETE) == 0) {
            problem[0] = "not marked complete";
            return null;
        }
        if (n < 0 || IndexDescriptor.entryOffset(n) != buf.limit()) {
            problem[0] = "entry count " + n + " does not match file size " + buf.limit();
            return null;
        }
        if (crc(buf) != buf.getInt(IndexDescriptor.CRC_OFFSET)) {
            problem[0] = "checksum mismatch";
            return null;
        }
        if (buf.getLong(IndexDescriptor.BASE_OFFSET_OFFSET) != expectedBase) {
            problem[0] = "base offset " + buf.getLong(IndexDescriptor.BASE_OFFSET_OFFSET) + " != " + expectedBase;
            return null;
        }
        SegmentIndex index = new SegmentIndex(expectedBase, Math.max(16, n));
        int prevRel = -1;
        int prevPos = -1;
        for (int i = 0; i < n; i++) {
            int at = IndexDescriptor.entryOffset(i);
            int rel = buf.getInt(at + IndexDescriptor.ENTRY_RELATIVE_OFFSET);
            int pos = buf.getInt(at + IndexDescriptor.ENTRY_POSITION);
            if (rel <= prevRel || pos <= prevPos) {
                problem[0] = "entry " + i + " (byte " + at + ") out of order";
                return null;
            }
            index.relativeOffsets[i] = rel;
            index.positions[i] = pos;
            index.runningMaxTimestamps[i] = buf.getLong(at + IndexDescriptor.ENTRY_MAX_TIMESTAMP);
            prevRel = rel;
            prevPos = pos;
        }
        index.runningMax = buf.getLong(IndexDescriptor.MAX_TIMESTAMP_OFFSET);
        index.count = n;
        return new Loaded(index, buf.getLong(IndexDescriptor.SEGMENT_BYTES_OFFSET),
                buf.getLong(IndexDescriptor.NEXT_OFFSET_OFFSET));
    }

    private static int crc(ByteBuffer buf) {
        CRC32C crc = new CRC32C();
        ByteBuffer b = buf.duplicate();
        b.position(IndexDescriptor.FLAGS_OFFSET).limit(IndexDescriptor.CRC_OFFSET);
        crc.update(b);
        b = buf.duplicate();
        b.position(IndexDescriptor.HEADER_LENGTH).limit(buf.limit());
        crc.update(b);
        return (int) crc.getValue();
    }
}
