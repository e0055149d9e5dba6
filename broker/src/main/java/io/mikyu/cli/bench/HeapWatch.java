package io.mikyu.cli.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/**
 * The heap and garbage collection of this JVM over a bench run: the high-water mark of the used heap (the sum of
 * each heap pool's peak, so garbage not yet collected counts), the most the heap held right after a collection
 * (the live data, sampled every 100 ms), and the time and number of collections. Meaningful for an embedded run:
 * a remote run measures the bench's own JVM, not the daemon's.
 */
final class HeapWatch {

    private final long gcMillisBefore;
    private final long gcCountBefore;
    private final Thread sampler;
    private volatile long maxAfterGc;

    /** Starts watching: the pools' peaks are reset now. */
    HeapWatch() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
        gcMillisBefore = gcMillis();
        gcCountBefore = gcCount();
        sampler = new Thread(() -> {
            try {
                while (true) {
                    maxAfterGc = Math.max(maxAfterGc, afterLastGc());
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                // stopped
            }
        }, "bench-heap-watch");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** What the heap and the collector did since {@link #HeapWatch()}: peak bytes, after-GC bytes, ms, count. */
    long[] stop() throws InterruptedException {
        sampler.interrupt();
        sampler.join();
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return new long[] {peak, Math.max(maxAfterGc, afterLastGc()), gcMillis() - gcMillisBefore,
            gcCount() - gcCountBefore};
    }

    private static long afterLastGc() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage u = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
            if (u != null) {
                sum += u.getUsed();
            }
        }
        return sum;
    }

    private static long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionTime());
        }
        return sum;
    }

    private static long gcCount() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, gc.getCollectionCount());
        }
        return sum;
    }
}
