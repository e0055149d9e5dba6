package io.mikyu.bench.xa;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Do overlapping fsyncs of one file cost more than one? Each of N threads writes 1 KiB into a preallocated file
 * through a descriptor of its own and fdatasyncs it, over and over; prints the median and p90 latency of one
 * write + fsync and the fsyncs per second, for each N given. What the transaction log's fsyncs beside the writer
 * (engine {@code FsyncPipeline}) rely on: if the fsyncs of N threads overlap, N of them take little longer than one.
 *
 * <pre>java -cp bench/xa/target/mikyu-xa-bench.jar io.mikyu.bench.xa.FsyncOverlap DIR ROUNDS N...</pre>
 * DIR must be on the disk under test (not a tmpfs); the file is deleted afterwards.
 */
public final class FsyncOverlap {

    private static final int RECORD = 1024;
    private static final long FILE_BYTES = 64L << 20;

    private FsyncOverlap() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: FsyncOverlap DIR ROUNDS THREADS...");
            System.exit(1);
        }
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        for (int i = 2; i < args.length; i++) {
            run(dir, Integer.parseInt(args[i]), rounds);
        }
    }

    private static void run(Path dir, int threads, int rounds) throws Exception {
        Path file = Files.createTempFile(dir, "fsync-overlap", ".dat");
        try {
            preallocate(file);
            long[][] latency = new long[threads][rounds];
            AtomicLong position = new AtomicLong();
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                long[] mine = latency[t];
                workers[t] = new Thread(() -> writeAndSync(file, position, mine));
            }
            long start = System.nanoTime();
            for (Thread w : workers) {
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long[] all = Arrays.stream(latency).flatMapToLong(Arrays::stream).sorted().toArray();
            System.out.printf("threads %d: write+fdatasync median %d us, p90 %d us, %.0f fsyncs/s%n", threads,
                    all[all.length / 2] / 1000, all[all.length * 9 / 10] / 1000, all.length / seconds);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Zeros written and fsynced first, as the engine preallocates: each fsync then overwrites allocated blocks. */
    private static void preallocate(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < FILE_BYTES; at += zeros.capacity()) {
                zeros.clear();
                ch.write(zeros, at);
            }
            ch.force(true);
        }
    }

    private static void writeAndSync(Path file, AtomicLong position, long[] latency) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer record = ByteBuffer.allocateDirect(RECORD);
            for (int i = 0; i < latency.length; i++) {
                record.clear();
                long at = position.getAndAdd(RECORD) % (FILE_BYTES - RECORD);
                long start = System.nanoTime();
                ch.write(record, at);
                ch.force(false);
                latency[i] = System.nanoTime() - start;
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
