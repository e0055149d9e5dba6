package io.mikyu.engine.recovery;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.RecordDescriptor;
import io.mikyu.engine.support.Fill;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Damage in the middle of the last segment after an unclean shutdown (no index, so recovery scans it): valid data
 * follows the damage, so it is corruption, not a torn tail.
 */
class ActiveSegmentCorruptionTest {

    private static final String Q = "a";

    @TempDir
    Path tmp;

    private Path crashed;
    private Path seg;
    private StoreFiles.Batch damaged;

    private void crashWithDamageInTheMiddle(Durability durability) {
        Path live = tmp.resolve("live");
        crashed = tmp.resolve("crashed");
        try (Mikyu store = Mikyu.open(live)) {
            Fill.append(store.createLog(Q, LogQueueConfig.defaults().withDurability(durability)), 0, 60);
            store.flush();
            StoreFiles.copyDirectory(live, crashed);
        }
        seg = StoreFiles.segments(StoreFiles.logDir(crashed, Q)).get(0);
        assertThat(StoreFiles.indexes(StoreFiles.logDir(crashed, Q))).isEmpty();
        List<StoreFiles.Batch> batches = StoreFiles.batches(seg);
        assertThat(batches).hasSize(60);
        damaged = batches.get(30);
        StoreFiles.flipByte(seg, damaged.position() + BatchDescriptor.HEADER_LENGTH
                + RecordDescriptor.HEADER_LENGTH + 33);
    }

    @ParameterizedTest
    @EnumSource(Durability.class)
    void damageFollowedByValidDataInTheLastSegmentIsReportedAsCorruptionAndDataBeforeItKept(Durability durability) {
        crashWithDamageInTheMiddle(durability);
        byte[] asFound = StoreFiles.read(seg);
        try (Mikyu store = Mikyu.open(crashed)) {
            List<RecoveryReport.Event> events = store.recoveryReport().events();
            assertThat(events).noneMatch(e -> e.kind() == RecoveryReport.Kind.TORN_TAIL_TRUNCATED);
            assertThat(events).anyMatch(e -> e.kind() == RecoveryReport.Kind.UNCLEAN_SHUTDOWN_SCAN);
            assertThat(events).filteredOn(e -> e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED)
                    .singleElement().satisfies(e -> {
                        assertThat(e.file()).isEqualTo(seg.toString());
                        assertThat(e.position()).isEqualTo(damaged.position());
                        assertThat(e.toString()).contains(seg.toString());
                    });
            assertThat(StoreFiles.quarantined(StoreFiles.logDir(crashed, Q))).singleElement()
                    .satisfies(p -> assertThat(StoreFiles.read(p)).isEqualTo(asFound));
            LogQueue q = store.log(Q);
            assertThat(q.endOffset()).isEqualTo(30);
            Fill.assertIntact(q, 0, 30);
            assertThat(q.append(Entry.of("after"))).isEqualTo(30);
            assertThat(q.read(30).payloadAsString()).isEqualTo("after");
        }
        try (Mikyu store = Mikyu.open(crashed)) {
            assertThat(store.recoveryReport().isClean()).isTrue();
            assertThat(store.log(Q).read(30).payloadAsString()).isEqualTo("after");
        }
    }

    @Test
    void underTheFailPolicyDamageInTheLastSegmentStopsTheOpen() {
        crashWithDamageInTheMiddle(Durability.ASYNC);
        EngineConfig fail = EngineConfig.builder().corruptionPolicy(EngineConfig.CorruptionPolicy.FAIL).build();
        assertThatThrownBy(() -> Mikyu.open(crashed, fail))
                .isInstanceOfSatisfying(CorruptionException.class, e -> {
                    assertThat(e.file()).isEqualTo(seg.toString());
                    assertThat(e.position()).isEqualTo(damaged.position());
                });
    }
}
