package io.mikyu.bench.jms;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The bench's one reader of this JVM's counters: its CPU time ({@link #cpuTimeNanos()}), and for one phase of a run
 * ({@link #begin()} to {@link #end()}) the wall time, the heap's high-water marks and the garbage collection. The
 * heap is sampled every 10 ms: the highest heap in use (garbage included) and the highest heap left in use right
 * after a collection (what the provider keeps alive, the figure that must not grow with a backlog).
 */
final class ProcessSampler {

    private final long startNs = System.nanoTime();
    private final long gcMillisAtStart = gcMillis();
    private final long gcCountAtStart = gcCount();
    private final Thread sampler;
    private volatile boolean running = true;
    private volatile long usedMax;
    private volatile long afterGcMax;
    private long endNs;
    long heapPeakMb;
    long liveHeapPeakMb;
    long gcMillis;
    long gcCount;

    private ProcessSampler() {
        sampler = new Thread(this::sample, "bench-heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts sampling a phase. */
    static ProcessSampler begin() {
        return new ProcessSampler();
    }

    /** CPU time this process has used, in nanoseconds (all threads), or -1 if unknown. */
    static long cpuTimeNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    private void sample() {
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        long[] seen = new long[collectors.size()];
        Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
                .collect(Collectors.toSet());
        while (running) {
            usedMax = Math.max(usedMax, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
            for (int i = 0; i < seen.length; i++) {
                if (collectors.get(i) instanceof com.sun.management.GarbageCollectorMXBean gc
                        && gc.getCollectionCount() != seen[i] && gc.getLastGcInfo() != null) {
                    seen[i] = gc.getCollectionCount();
                    long afterGc = 0;
                    for (Map.Entry<String, MemoryUsage> pool
                            : gc.getLastGcInfo().getMemoryUsageAfterGc().entrySet()) {
                        afterGc += heapPools.contains(pool.getKey()) ? pool.getValue().getUsed() : 0;
                    }
                    afterGcMax = Math.max(afterGcMax, afterGc);
                }
            }
            try {
                TimeUnit.MILLISECONDS.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Ends the phase: its figures are set. */
    void end() throws InterruptedException {
        endNs = System.nanoTime();
        running = false;
        sampler.join();
        heapPeakMb = usedMax >> 20;
        liveHeapPeakMb = afterGcMax >> 20;
        gcMillis = gcMillis() - gcMillisAtStart;
        gcCount = gcCount() - gcCountAtStart;
    }

    double seconds() {
        return Math.max(endNs - startNs, 1) / 1e9;
    }

    private static long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(gc.getCollectionTime(), 0);
        }
        return sum;
    }

    private static long gcCount() {
        long sum = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(gc.getCollectionCount(), 0);
        }
        return sum;
    }
}
