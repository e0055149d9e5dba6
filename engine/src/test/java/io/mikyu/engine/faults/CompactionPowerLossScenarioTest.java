package io.mikyu.engine.faults;

import io.mikyu.engine.support.CompactionPowerLoss;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * The power lost at {@code mikyu.faults.cycles} points spread over the writes and fsyncs of a compaction of many
 * passes (at every one of them if they are fewer); after each, the store opens with nothing lost
 * ({@link CompactionPowerLoss}).
 */
@Tag("faults")
class CompactionPowerLossScenarioTest {

    private static final int CYCLES = Integer.getInteger("mikyu.faults.cycles", 12);

    @TempDir
    Path tmp;

    @Test
    void aPowerLossAnywhereInAMultiPassCompactionLosesNothing() throws Exception {
        long events = new CompactionPowerLoss(tmp).run(CYCLES);
        System.out.printf("compaction power loss: %d cuts over %d writes and fsyncs%n", Math.min(CYCLES, events),
                events);
    }
}
