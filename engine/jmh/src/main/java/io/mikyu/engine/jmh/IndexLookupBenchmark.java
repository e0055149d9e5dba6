package io.mikyu.engine.jmh;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.log.JmhSegmentIndexProbe;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Finding a record by offset.
 *
 * <ul>
 *   <li>{@code indexFloor}: {@code SegmentIndex.floorPosition} on an index of 256 Ki entries (a full 1 GiB segment at
 *   the default 4 KiB interval), random offsets. {@code SegmentIndex} is package-private, so this goes through
 *   {@link JmhSegmentIndexProbe}, a bridge class this module adds to the engine's package (a split package on the
 *   class path, which is fine without JPMS). That keeps the engine's API untouched and this class beside the others.</li>
 *   <li>{@code readSealed}: {@code LogQueue.read(offset, 1)} at random offsets of the first, sealed segment: far
 *   behind the ring cache, so it is the segment-map lookup, index floor, mmap slice, CRC check of the whole batch and
 *   decode up to the offset.</li>
 *   <li>{@code readRecent}: the same call at random offsets among the last 1024 records: served by the ring cache
 *   ({@code RecentBatchCache}), no CRC (the cache holds a copy of what the writer wrote).</li>
 * </ul>
 * The log is written with batches of {@code batchRecords} records of 1 KiB: with 64 a read of one record checks a
 * 66 KiB batch's CRC, which is what separates the two values.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class IndexLookupBenchmark {

    private static final int LOOKUPS = 1 << 12; // pre-drawn random targets, cycled through
    private static final int MASK = LOOKUPS - 1;

    @State(Scope.Thread)
    public static class IndexState {
        static final long BASE = 1_000_000L;
        static final int ENTRIES = 256 * 1024;
        static final int RECORDS_PER_ENTRY = 4; // ~4 records of 1 KiB per 4 KiB index interval
        static final int BYTES_PER_ENTRY = 4 * 1100;

        JmhSegmentIndexProbe index;
        final long[] targets = new long[LOOKUPS];
        int next;

        @Setup(Level.Trial)
        public void setup() {
            index = JmhSegmentIndexProbe.filled(BASE, ENTRIES, RECORDS_PER_ENTRY, BYTES_PER_ENTRY);
            SplittableRandom random = new SplittableRandom(7);
            for (int i = 0; i < LOOKUPS; i++) {
                targets[i] = BASE + random.nextLong((long) ENTRIES * RECORDS_PER_ENTRY);
            }
        }
    }

    @State(Scope.Benchmark)
    public static class LogState {
        static final long SEGMENT_BYTES = 16L * 1024 * 1024;
        // ~87 MiB of log: segments 0..4 sealed; the ring cache (default 32 MiB, at most 4096 batches) holds only
        // the tail, far from the first segment. verifyPaths() fails the trial if that ever stops being true.
        static final int RECORDS = 80 * 1024;
        static final int RECENT = 1024;

        @Param({"1", "64"})
        int batchRecords;

        Path dir;
        Mikyu store;
        LogQueue queue;
        final long[] sealedTargets = new long[LOOKUPS];
        final long[] recentTargets = new long[LOOKUPS];

        @Setup(Level.Trial)
        public void setup() {
            dir = Fixtures.tempDir("mikyu-jmh-read-");
            store = Mikyu.open(dir, EngineConfig.defaults());
            queue = store.createLog("bench", LogQueueConfig.defaults().withSegmentBytes(SEGMENT_BYTES));
            List<Entry> batch = Fixtures.entries(batchRecords, false, 3);
            for (int written = 0; written < RECORDS; written += batchRecords) {
                queue.appendBatch(batch);
            }
            long end = queue.endOffset();
            // The first segment holds the first ~15k records; stay within its first half to be safe.
            long sealedSpan = SEGMENT_BYTES / 2 / (Fixtures.PAYLOAD_BYTES + 64);
            SplittableRandom random = new SplittableRandom(11);
            for (int i = 0; i < LOOKUPS; i++) {
                sealedTargets[i] = random.nextLong(sealedSpan);
                recentTargets[i] = end - 1 - random.nextLong(RECENT);
            }
            verifyPaths();
        }

        /** Fails the trial if the two read benchmarks would not measure the path their names say. */
        private void verifyPaths() {
            QueueStats before = queue.stats();
            if (before.segments() < 3) {
                throw new IllegalStateException("expected sealed segments, got " + before);
            }
            for (int i = 0; i < 64; i++) {
                if (queue.read(sealedTargets[i], 1).get(0).offset() != sealedTargets[i]) {
                    throw new IllegalStateException("read returned the wrong record");
                }
            }
            QueueStats mid = queue.stats();
            for (int i = 0; i < 64; i++) {
                if (queue.read(recentTargets[i], 1).get(0).offset() != recentTargets[i]) {
                    throw new IllegalStateException("read returned the wrong record");
                }
            }
            QueueStats after = queue.stats();
            if (mid.cacheHits() != before.cacheHits() || after.cacheMisses() != mid.cacheMisses()) {
                throw new IllegalStateException("sealed reads hit the cache or recent reads missed it: " + before
                        + " / " + mid + " / " + after);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            try {
                if (store != null) {
                    store.close();
                }
            } finally {
                Fixtures.deleteRecursively(dir);
            }
        }
    }

    @State(Scope.Thread)
    public static class Cursor {
        int next;
    }

    @Benchmark
    public int indexFloor(IndexState s) {
        return s.index.floorPosition(s.targets[s.next++ & MASK]);
    }

    @Benchmark
    public List<Record> readSealed(LogState log, Cursor c) {
        return log.queue.read(log.sealedTargets[c.next++ & MASK], 1);
    }

    @Benchmark
    public List<Record> readRecent(LogState log, Cursor c) {
        return log.queue.read(log.recentTargets[c.next++ & MASK], 1);
    }
}
