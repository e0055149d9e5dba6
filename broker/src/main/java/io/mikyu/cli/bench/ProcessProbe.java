package io.mikyu.cli.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The benches' one reader of this process's counters: heap (in use after a full collection, the pools' peaks, what
 * the last collection left), open file descriptors ({@code /proc/self/fd}), CPU time, page faults and the
 * kernel's user/system split ({@code /proc/self/stat}), and the collectors' counts and times. Linux-only figures are
 * -1 elsewhere. {@link ProcessUsage} is what a run used, from two {@link ProcessUsage.Snapshot}s of these;
 * {@link HeapWatch} follows the heap through a run.
 */
public final class ProcessProbe {

    private static final Path FDS = Path.of("/proc/self/fd");

    private ProcessProbe() {
    }

    /** Heap bytes still reachable: used heap after {@link System#gc()} (a full collection in HotSpot's defaults). */
    public static long heapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Open file descriptors of this process, or -1 where {@code /proc/self/fd} does not exist. */
    public static long openFileDescriptors() {
        if (!Files.isDirectory(FDS)) {
            return -1;
        }
        long n = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(FDS)) {
            for (Path ignored : fds) {
                n++;
            }
        } catch (IOException e) {
            return -1;
        }
        return n - 1; // the directory stream's own descriptor
    }

    /** CPU time this process has used, in nanoseconds (all threads, user and system), or -1 if unknown. */
    public static long cpuTimeNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /**
     * Collections so far and their milliseconds: {@code {count, millis}}. {@code pausesOnly}: stop-the-world ones
     * only (G1 from JDK 20 and ZGC report their concurrent work as collectors of their own, which are not pauses).
     */
    static long[] collections(boolean pausesOnly) {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (pausesOnly && (gc.getName().contains("Concurrent") || gc.getName().contains("Cycles"))) {
                continue;
            }
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {count, millis};
    }

    /** minflt, majflt, utime, stime (ticks) from Linux's /proc/self/stat; -1 each elsewhere. */
    static long[] procSelfStat() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // Fields after the command name, which is in parentheses and may contain spaces.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            // f[0] is field 3 (state): minflt is field 10, majflt 12, utime 14, stime 15.
            return new long[] {Long.parseLong(f[7]), Long.parseLong(f[9]), Long.parseLong(f[11]),
                    Long.parseLong(f[12])};
        } catch (IOException | RuntimeException notLinux) {
            return new long[] {-1, -1, -1, -1};
        }
    }

    /** Heap the JVM has committed now. */
    static long heapCommitted() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
    }

    /** Starts a {@link HeapWatch}: the heap pools' peaks are reset now. */
    static HeapWatch watchHeap() {
        return new HeapWatch();
    }

    /** The heap pools' used bytes: their peaks since the last reset ({@code peak}), else what the last GC left. */
    private static long heapPools(boolean peak) {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage u = pool.getType() != MemoryType.HEAP ? null
                    : peak ? pool.getPeakUsage() : pool.getCollectionUsage();
            if (u != null) {
                sum += u.getUsed();
            }
        }
        return sum;
    }

    /**
     * The heap and garbage collection of this JVM over a bench run: the high-water mark of the used heap (the sum of
     * each heap pool's peak, so garbage not yet collected counts), the most the heap held right after a collection
     * (the live data, sampled every 100 ms), and the time and number of collections. Meaningful for an embedded run:
     * a remote run measures the bench's own JVM, not the daemon's.
     */
    static final class HeapWatch {

        private final long[] collectionsBefore;
        private final Thread sampler;
        private volatile long maxAfterGc;

        private HeapWatch() {
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    pool.resetPeakUsage();
                }
            }
            collectionsBefore = collections(false);
            sampler = new Thread(() -> {
                try {
                    while (true) {
                        maxAfterGc = Math.max(maxAfterGc, heapPools(false));
                        Thread.sleep(100);
                    }
                } catch (InterruptedException e) {
                    // stopped
                }
            }, "bench-heap-watch");
            sampler.setDaemon(true);
            sampler.start();
        }

        /** What the heap and the collector did since the watch started: peak bytes, after-GC bytes, ms, count. */
        long[] stop() throws InterruptedException {
            sampler.interrupt();
            sampler.join();
            long[] collections = collections(false);
            return new long[] {heapPools(true), Math.max(maxAfterGc, heapPools(false)),
                collections[1] - collectionsBefore[1], collections[0] - collectionsBefore[0]};
        }
    }
}
