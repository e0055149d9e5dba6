package io.mikyu.engine.recovery;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.support.Fill;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A segment whose file header (magic, format version) is wrong. */
class SegmentHeaderRecoveryTest {

    private static final String Q = "h";
    private static final int RECORDS = 150;

    @TempDir
    Path data;

    private List<Path> segments;

    @BeforeEach
    void writeSmallSegments() {
        try (Mikyu store = Mikyu.open(data)) {
            Fill.append(store.createLog(Q, LogQueueConfig.defaults().withSegmentBytes(4096)), 0, RECORDS);
        }
        segments = StoreFiles.segments(StoreFiles.logDir(data, Q));
        assertThat(segments).hasSizeGreaterThanOrEqualTo(4);
    }

    private long firstOffsetOf(int segment) {
        return StoreFiles.batches(segments.get(segment)).get(0).baseOffset();
    }

    @Test
    void aSealedSegmentWithABadMagicIsReportedAndQuarantinedAndTheOthersStayReadable() {
        Path victim = segments.get(1);
        StoreFiles.writeAt(victim, 0, "NOTASEGM".getBytes(StandardCharsets.US_ASCII));
        long lostFrom = firstOffsetOf(1);
        long lostTo = firstOffsetOf(2);
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events())
                    .filteredOn(e -> e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED)
                    .singleElement().satisfies(e -> {
                        assertThat(e.file()).isEqualTo(victim.toString());
                        assertThat(e.position()).isZero();
                        assertThat(e.detail()).contains("header");
                    });
            assertThat(StoreFiles.quarantined(StoreFiles.logDir(data, Q))).hasSize(1);
            LogQueue q = store.log(Q);
            Fill.assertIntact(q, 0, lostFrom);
            Fill.assertIntact(q, lostTo, RECORDS);
            assertThat(q.read(lostFrom)).isNull();
            assertThat(q.append(Entry.of("next"))).isEqualTo(RECORDS);
        }
    }

    @Test
    void underTheFailPolicyABadMagicStopsTheOpenNamingTheFile() {
        Path victim = segments.get(1);
        StoreFiles.writeAt(victim, 0, "NOTASEGM".getBytes(StandardCharsets.US_ASCII));
        EngineConfig fail = EngineConfig.builder().corruptionPolicy(EngineConfig.CorruptionPolicy.FAIL).build();
        assertThatThrownBy(() -> Mikyu.open(data, fail))
                .isInstanceOfSatisfying(CorruptionException.class, e -> {
                    assertThat(e.file()).isEqualTo(victim.toString());
                    assertThat(e.position()).isZero();
                    assertThat(e.getMessage()).containsIgnoringCase("header").contains(victim.toString());
                });
    }

    @Test
    void aSegmentOfAnUnsupportedFormatVersionIsRefusedNamingTheVersionNotQuarantinedAsDamage() {
        Path victim = segments.get(1);
        byte[] before = StoreFiles.read(victim);
        StoreFiles.writeAt(victim, 8, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 2).array());
        byte[] written = StoreFiles.read(victim);
        assertThat(written).isNotEqualTo(before);
        // a file from a newer mikyu is not damage: opening must not cut or move it, and must say why it stops
        assertThatThrownBy(() -> Mikyu.open(data, EngineConfig.builder()
                        .corruptionPolicy(EngineConfig.CorruptionPolicy.FAIL).build()))
                .isInstanceOf(MikyuException.class)
                .hasMessageContaining(victim.toString())
                .hasMessageContaining("version 2");
        assertThat(StoreFiles.read(victim)).isEqualTo(written);
        // the store opens its queues on first use: the queue's open, and every call that needs it, stops instead
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().openQueuesInBackground(false).build())) {
            for (int attempt = 0; attempt < 2; attempt++) {
                assertThatThrownBy(() -> store.log(Q))
                        .isInstanceOf(MikyuException.class)
                        .hasMessageContaining(victim.toString())
                        .hasMessageContaining("version 2");
            }
            assertThatThrownBy(store::recoveryReport).isInstanceOf(MikyuException.class)
                    .hasMessageContaining("version 2");
        }
        assertThat(StoreFiles.read(victim)).isEqualTo(written);
    }

    @Test
    void theLastSegmentWithABadMagicIsQuarantinedAndAppendsContinueAfterTheSurvivors() {
        Path last = segments.get(segments.size() - 1);
        long lostFrom = firstOffsetOf(segments.size() - 1);
        StoreFiles.writeAt(last, 0, "GARBAGE!".getBytes(StandardCharsets.US_ASCII));
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events())
                    .anySatisfy(e -> {
                        assertThat(e.kind()).isEqualTo(RecoveryReport.Kind.CORRUPTION_QUARANTINED);
                        assertThat(e.file()).isEqualTo(last.toString());
                    });
            LogQueue q = store.log(Q);
            Fill.assertIntact(q, 0, lostFrom);
            assertThat(q.endOffset()).isEqualTo(lostFrom);
            assertThat(q.append(Entry.of("next"))).isEqualTo(lostFrom);
        }
    }

    @Test
    void aLastSegmentWhoseHeaderWasNeverWrittenIsStartedOver() {
        Path last = segments.get(segments.size() - 1);
        long base = firstOffsetOf(segments.size() - 1);
        // what a crash right after creating the file leaves
        StoreFiles.truncate(last, 0);
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events())
                    .anyMatch(e -> e.kind() == RecoveryReport.Kind.TORN_TAIL_TRUNCATED && e.file().equals(last.toString()));
            assertThat(store.recoveryReport().events())
                    .noneMatch(e -> e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED);
            LogQueue q = store.log(Q);
            Fill.assertIntact(q, 0, base);
            assertThat(q.append(Entry.of("next"))).isEqualTo(base);
        }
    }
}
