package io.mikyu.engine.log;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Housekeeping runs on a scheduled executor, which never runs a task again once it has thrown. An Error in one
 * queue's compaction (here an OutOfMemoryError, injected into the fsync of the rewritten segment) must neither
 * stop housekeeping for good nor keep the other queues' retention from running; it is counted and retried.
 */
@Timeout(60)
class HousekeepingFailureTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path data;

    private static void updates(LogQueue q, int rounds) {
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < 5; k++) {
                q.append(Entry.keyed("k" + k, "v" + round + "-" + "#".repeat(100)));
            }
        }
    }

    @Test
    void anErrorInCompactionIsCountedAndHousekeepingGoesOnForEveryQueue() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        EngineConfig config = EngineConfig.builder().housekeepingInterval(Duration.ofMillis(50))
                .meterRegistry(meters).build();
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data, config)) {
            faults.failForces(f -> f.getFileName().toString().endsWith(".compacting"),
                    () -> new OutOfMemoryError("Java heap space (injected)"));
            LogQueue compacted = store.createLog("compacted",
                    LogQueueConfig.defaults().withSegmentBytes(4096).withCompaction(true));
            updates(compacted, 40);
            await("compaction failed twice (housekeeping ran again after the Error)").atMost(DEADLINE)
                    .until(() -> faults.failedForces() >= 2);
            await("the failures counted").atMost(DEADLINE).until(() -> meters.get("mikyu.engine.housekeeping.failures")
                    .functionCounter().count() >= 2);
            assertThat(compacted.read(0, 100_000)).as("no failed rewrite took effect").hasSize(200);

            // Retention of another queue still happens, after the failures began.
            LogQueue retained = store.createLog("retained",
                    LogQueueConfig.defaults().withSegmentBytes(4096).withRetentionBytes(8192));
            for (int i = 0; i < 200; i++) {
                retained.append(Entry.of("r" + i + "-" + "#".repeat(100)));
            }
            await("retention dropped old segments of 'retained'").atMost(DEADLINE)
                    .until(() -> retained.startOffset() > 0);

            // And once compaction can succeed, it does: one record per key in the sealed segments.
            faults.heal();
            await("compaction removed superseded records").atMost(DEADLINE)
                    .until(() -> compacted.read(0, 100_000).size() < 200);
        }
    }
}
