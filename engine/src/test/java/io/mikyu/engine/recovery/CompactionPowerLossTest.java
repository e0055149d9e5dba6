package io.mikyu.engine.recovery;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.files.PowerLossFileSystem;
import io.mikyu.engine.support.CompactedLogModel;
import io.mikyu.engine.support.CompactionPowerLoss;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A power loss at a few points of a compaction of many passes loses nothing (see {@link CompactionPowerLoss}; the
 * fault campaign's {@code CompactionPowerLossScenarioTest} cuts at many more), and a compaction never removes a
 * durable record for a newer one a power loss can still take.
 */
@Timeout(180)
class CompactionPowerLossTest {

    @TempDir
    Path tmp;

    @Test
    void aPowerLossDuringAMultiPassCompactionLosesNothing() throws Exception {
        new CompactionPowerLoss(tmp).run(4);
    }

    @Test
    void aCompactionKeepsADurableRecordWhoseNewerRecordIsNotYetFsynced() throws Exception {
        LogQueueConfig compacted = LogQueueConfig.defaults().withSegmentBytes(4096).withCompaction(true)
                .withDurability(Durability.ASYNC);
        // The flusher stays quiet: the async append below is not fsynced unless the compaction does it.
        EngineConfig config = EngineConfig.builder().flushInterval(Duration.ofHours(1))
                .housekeepingInterval(Duration.ofHours(1)).build();
        Path data = tmp.resolve("data");
        long durable;
        try (Mikyu store = Mikyu.open(data, config)) {
            LogQueue q = store.createLog("c", compacted);
            durable = q.append(Entry.keyed("k", "durable"), Durability.SYNC);
            while (q.stats().segments() < 2) { // the segment holding it sealed, so a compaction may rewrite it
                q.append(Entry.of("filler-" + q.endOffset() + "-" + "#".repeat(100)), Durability.SYNC);
            }
        }

        Path after = tmp.resolve("after");
        long newer;
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, tmp.resolve("disk"))) {
            Mikyu store = Mikyu.open(data, config);
            try {
                LogQueue q = store.log("c");
                newer = q.append(Entry.keyed("k", "newer"), Durability.ASYNC);
                q.compact();
            } finally {
                disk.cut();
                try {
                    store.close();
                } catch (RuntimeException expectedOnADeadDisk) {
                    // nothing it writes now reaches the disk
                }
            }
            disk.materialize(after);
        }

        try (Mikyu store = Mikyu.open(after, config)) {
            List<Record> ofK = CompactedLogModel.readAll(store.log("c")).stream()
                    .filter(r -> r.key() != null && r.keyAsString().equals("k")).toList();
            assertThat(ofK).as("records of the key after the power loss").isNotEmpty();
            assertThat(ofK).allSatisfy(r -> assertThat(r.offset()).isIn(durable, newer));
            Record last = ofK.get(ofK.size() - 1);
            assertThat(last.payloadAsString()).isEqualTo(last.offset() == durable ? "durable" : "newer");
        }
    }
}
