package io.mikyu.engine.recovery;

import io.mikyu.engine.support.CompactionPowerLoss;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * A power loss at a few points of a compaction of many passes loses nothing (see {@link CompactionPowerLoss}; the
 * fault campaign's {@code CompactionPowerLossScenarioTest} cuts at many more).
 */
@Timeout(180)
class CompactionPowerLossTest {

    @TempDir
    Path tmp;

    @Test
    void aPowerLossDuringAMultiPassCompactionLosesNothing() throws Exception {
        new CompactionPowerLoss(tmp).run(4);
    }
}
