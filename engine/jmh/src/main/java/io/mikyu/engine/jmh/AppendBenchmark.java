package io.mikyu.engine.jmh;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The whole append path through the public API: encode + CRC on the calling thread, hand-off to the group-commit
 * writer, positional write (and for SYNC the fsync), publication. Scores are calls per second summed over all
 * threads; {@code appendBatch64*} calls carry 64 records of 1 KiB each, so multiply by 64 for records/s.
 *
 * <p>The {@code _4threads} variants put four producers on one queue: their requests meet in the writer's inbox and
 * are written together (group commit). On a 2-core machine they also compete with the writer thread for CPU.
 * {@code appendSync1} waits for an fsync per call (shared only with requests that arrive meanwhile), so it measures
 * the disk more than the code.
 *
 * <p>ASYNC appends reach the page cache at high rates; the queue keeps at most about 512 MiB (retention, run every
 * second) so long runs do not fill the disk. Retention deleting segments in the background is part of the cost.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class AppendBenchmark {

    private Path dir;
    private Mikyu store;
    private LogQueue queue;
    private List<Entry> batch64;
    private Entry single;

    @Setup(Level.Trial)
    public void setup() {
        dir = Fixtures.tempDir("mikyu-jmh-append-");
        store = Mikyu.open(dir, EngineConfig.builder().housekeepingInterval(Duration.ofSeconds(1)).build());
        queue = store.createLog("bench", LogQueueConfig.defaults()
                .withSegmentBytes(64L * 1024 * 1024)
                .withRetentionBytes(512L * 1024 * 1024));
        batch64 = Fixtures.entries(64, false, 1);
        single = Fixtures.entries(1, false, 2).get(0);
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

    @Benchmark
    @Threads(1)
    public long appendBatch64() {
        return queue.appendBatch(batch64, Durability.ASYNC);
    }

    @Benchmark
    @Threads(4)
    public long appendBatch64_4threads() {
        return queue.appendBatch(batch64, Durability.ASYNC);
    }

    @Benchmark
    @Threads(1)
    public long append1() {
        return queue.append(single, Durability.ASYNC);
    }

    @Benchmark
    @Threads(4)
    public long append1_4threads() {
        return queue.append(single, Durability.ASYNC);
    }

    @Benchmark
    @Threads(1)
    public long appendSync1() {
        return queue.append(single, Durability.SYNC);
    }
}
