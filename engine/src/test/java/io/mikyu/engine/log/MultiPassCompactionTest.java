package io.mikyu.engine.log;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.support.CompactedLogModel;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction with a key map far smaller than the log's keys (2 KiB: 63 keys a pass, for 150 keys) compacts in
 * several passes and gives exactly what an unbounded map gives: the newest record of each key, tombstones kept
 * within their retention and gone after it, records without a key, every offset unchanged.
 */
@Timeout(120)
class MultiPassCompactionTest {

    private static final long MAP_BYTES = 2048;
    private static final int KEYS_PER_PASS = 63;
    private static final int KEYS = 150;
    private static final LogQueueConfig COMPACTED = LogQueueConfig.defaults().withSegmentBytes(8192)
            .withCompaction(true).withTombstoneRetention(Duration.ofHours(1));

    @TempDir
    Path data;

    private final SteppableTimeSource clock = new SteppableTimeSource(1_700_000_000_000L);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final CompactedLogModel model = new CompactedLogModel();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().compactionKeyMapBytes(MAP_BYTES).timeSource(clock)
                .meterRegistry(meters).housekeepingInterval(Duration.ofHours(1)).build());
    }

    private double passes() {
        return meters.get("mikyu.queue.compaction.passes").tags("queue", "c").functionCounter().count();
    }

    private double mappedKeys() {
        return meters.get("mikyu.queue.compaction.keys").tags("queue", "c").functionCounter().count();
    }

    /** Compacts the queue now, in the model too; returns the records removed. */
    private long compact(LogQueue q) {
        long sealedEnd = CompactedLogModel.activeSegmentBase(data, "c");
        int before = model.present().size();
        model.compact(sealedEnd, clock.wallMillis() - Duration.ofHours(1).toMillis());
        long removed = q.compact();
        assertThat(removed).as("records removed").isEqualTo(before - model.present().size());
        return removed;
    }

    @Test
    void aLogWithManyMoreKeysThanTheMapHoldsCompactsExactlyAsWithAnUnboundedMap() {
        Random random = new Random(42);
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("c", COMPACTED);
            model.appendUpdates(q, random, KEYS, 250, clock.wallMillis());
            clock.advance(Duration.ofHours(2)); // the tombstones so far expire, the next ones do not
            model.appendUpdates(q, random, KEYS, 250, clock.wallMillis());
            // The active segment holds no key, so the last pass maps up to the end, as an unbounded map does.
            model.appendUnkeyed(q, 200, clock.wallMillis());
            int keys = model.newestRecords().size();
            assertThat(keys).as("distinct keys").isGreaterThan(2 * KEYS_PER_PASS);

            assertThat(compact(q)).isPositive();
            model.assertHeldBy(q);
            assertThat(passes()).as("passes").isGreaterThanOrEqualTo(Math.ceil((double) keys / KEYS_PER_PASS));
            assertThat(mappedKeys()).as("keys mapped, at most %d a pass", KEYS_PER_PASS)
                    .isLessThanOrEqualTo(passes() * KEYS_PER_PASS).isGreaterThanOrEqualTo(keys);
        }
        try (Mikyu store = open()) {
            LogQueue q = store.log("c");
            model.assertHeldBy(q);
            assertThat(q.compact()).as("removed by compacting again after a restart").isZero();
            model.assertHeldBy(q);
        }
    }

    @Test
    void theNextCompactionMapsOnlyWhatWasAppendedSinceAndStillRemovesWhatExpired() {
        Random random = new Random(7);
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("c", COMPACTED);
            model.appendUpdates(q, random, KEYS, 500, clock.wallMillis());
            model.appendUnkeyed(q, 200, clock.wallMillis());
            compact(q);
            model.assertHeldBy(q);
            double passesBefore = passes();
            double keysBefore = mappedKeys();

            // Later the tombstones kept so far expire, and a few keys are updated.
            clock.advance(Duration.ofHours(2));
            model.appendUpdates(q, random, 40, 150, clock.wallMillis());
            model.appendUnkeyed(q, 200, clock.wallMillis());
            assertThat(compact(q)).isPositive();
            model.assertHeldBy(q);
            assertThat(passes() - passesBefore).as("passes of the second compaction").isEqualTo(1);
            assertThat(mappedKeys() - keysBefore).as("keys the second compaction mapped").isLessThanOrEqualTo(40);
        }
    }
}
