package io.mikyu.cli.bench;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What the disk under a directory can do, measured the way the engine uses it, so a {@code bench run} result can
 * be read against it:
 * <ul>
 *   <li>sequential write bandwidth, as {@code dd if=/dev/zero of=DIR/f bs=1M count=2048 conv=fdatasync}: 1 MiB
 *       writes then one {@code fdatasync} ({@code FileChannel.force(false)}), timed together;</li>
 *   <li>the latency of a 4 KiB write plus {@code fdatasync}, the cost floor of a sync append, both over a
 *       preallocated, zero-filled file (what the engine's preallocation buys) and at the end of a growing file
 *       (where every sync must also persist the new file size).</li>
 * </ul>
 * Its files are deleted afterwards, also on failure.
 */
public final class DiskBench {

    private static final int BLOCK = 1 << 20;
    private static final int SYNC_WRITE = 4096;

    /**
     * @param seqWriteMegabytesPerSecond MB = 10^6 bytes
     * @param overwrite                  nanoseconds per 4 KiB write + fdatasync, preallocated file
     * @param append                     nanoseconds per 4 KiB write + fdatasync, growing file
     */
    public record Result(long seqWriteBytes, double seqWriteMegabytesPerSecond, Histogram overwrite, Histogram append) {

        public double overwriteP50Micros() {
            return overwrite.getValueAtPercentile(50) / 1000.0;
        }

        public double appendP50Micros() {
            return append.getValueAtPercentile(50) / 1000.0;
        }

        /** Three human-readable lines. */
        public String summary() {
            return String.format(Locale.ROOT,
                    "sequential write  %.1f MB/s  (%d MiB in 1 MiB writes + one fdatasync; MB = 10^6 bytes)%n"
                            + "fdatasync 4 KiB   p50 %.1f us  p99 %.1f us  over a preallocated file%n"
                            + "fdatasync 4 KiB   p50 %.1f us  p99 %.1f us  appending to a growing file",
                    seqWriteMegabytesPerSecond, seqWriteBytes >> 20,
                    overwriteP50Micros(), overwrite.getValueAtPercentile(99) / 1000.0,
                    appendP50Micros(), append.getValueAtPercentile(99) / 1000.0);
        }

        public JsonObject toJson() {
            return new JsonObject()
                    .put("seq_write_mb_per_s", seqWriteMegabytesPerSecond)
                    .put("fdatasync_overwrite_p50_us", overwriteP50Micros())
                    .put("fdatasync_overwrite_p99_us", overwrite.getValueAtPercentile(99) / 1000.0)
                    .put("fdatasync_append_p50_us", appendP50Micros())
                    .put("fdatasync_append_p99_us", append.getValueAtPercentile(99) / 1000.0)
                    .put("seq_write_bytes", seqWriteBytes)
                    .put("fdatasync_iterations", overwrite.getTotalCount());
        }
    }

    private final Path dir;
    private final long seqWriteBytes;
    private final int syncIterations;

    public DiskBench(Path dir, long seqWriteBytes, int syncIterations) {
        if (seqWriteBytes < BLOCK) {
            throw new IllegalArgumentException("--size must be at least 1MiB");
        }
        if (syncIterations < 1) {
            throw new IllegalArgumentException("--iterations must be at least 1");
        }
        this.dir = dir;
        this.seqWriteBytes = seqWriteBytes;
        this.syncIterations = syncIterations;
    }

    /** Bytes of free space the run needs in the directory. */
    public long bytesNeeded() {
        return seqWriteBytes + 2L * syncIterations * SYNC_WRITE;
    }

    public Result run() throws IOException {
        Path file = Files.createTempFile(dir, "mikyu-disk-bench-", ".tmp");
        try {
            double mbPerSecond = sequentialWrite(file);
            Files.delete(file);
            Histogram overwrite = syncLatency(file, true);
            Files.delete(file);
            Histogram append = syncLatency(file, false);
            return new Result(seqWriteBytes, mbPerSecond, overwrite, append);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private double sequentialWrite(Path file) throws IOException {
        ByteBuffer block = ByteBuffer.allocateDirect(BLOCK);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long start = System.nanoTime();
            for (long written = 0; written < seqWriteBytes; ) {
                block.clear().limit((int) Math.min(BLOCK, seqWriteBytes - written));
                while (block.hasRemaining()) {
                    written += channel.write(block);
                }
            }
            channel.force(false);
            return seqWriteBytes / 1e6 / ((System.nanoTime() - start) / 1e9);
        }
    }

    private Histogram syncLatency(Path file, boolean preallocated) throws IOException {
        Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        ByteBuffer page = ByteBuffer.allocateDirect(SYNC_WRITE);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            if (preallocated) {
                // Real zeros, not a sparse hole: a hole would make each write allocate blocks, like appending.
                for (int i = 0; i < syncIterations; i++) {
                    page.clear();
                    while (page.hasRemaining()) {
                        channel.write(page, (long) i * SYNC_WRITE + page.position());
                    }
                }
                channel.force(true);
            }
            for (int i = 0; i < syncIterations; i++) {
                page.clear();
                page.putLong(0, i);
                long position = (long) i * SYNC_WRITE;
                long start = System.nanoTime();
                while (page.hasRemaining()) {
                    channel.write(page, position + page.position());
                }
                channel.force(false);
                latency.recordValue(Math.min(System.nanoTime() - start, latency.getHighestTrackableValue()));
            }
        }
        return latency;
    }
}
