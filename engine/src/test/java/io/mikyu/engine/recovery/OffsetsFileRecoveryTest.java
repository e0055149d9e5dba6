package io.mikyu.engine.recovery;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.internal.format.FileHeader;
import io.mikyu.engine.internal.format.OffsetsDescriptor;
import io.mikyu.engine.support.Fill;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Damage to {@code offsets.log}: commits before it are kept; a group never moves past what it committed. */
class OffsetsFileRecoveryTest {

    private static final String Q = "o";
    /** Entry size for group "g": 8 bytes of length and crc, the fixed body, one name byte. */
    private static final int ENTRY = 8 + OffsetsDescriptor.FIXED_BODY + 1;

    @TempDir
    Path data;

    private Path offsetsFile;

    /** Entries: g created (no commit), g=10, g=20, g=30. */
    @BeforeEach
    void commitThreeTimes() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog(Q);
            Fill.append(q, 0, 100);
            ConsumerGroup g = q.group("g");
            g.commit(10);
            g.commit(20);
            g.commit(30);
        }
        offsetsFile = StoreFiles.logDir(data, Q).resolve("offsets.log");
        assertThat(StoreFiles.size(offsetsFile)).isEqualTo(FileHeader.LENGTH + 4L * ENTRY);
    }

    private static long entry(int i) {
        return FileHeader.LENGTH + (long) i * ENTRY;
    }

    private static ConsumerGroup g(Mikyu store) {
        return store.log(Q).group("g");
    }

    @Test
    void aTruncatedLastCommitIsCutAsATornTailAndTheCommitBeforeItKept() {
        StoreFiles.truncate(offsetsFile, entry(3) + ENTRY - 4);
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events()).singleElement().satisfies(e -> {
                assertThat(e.kind()).isEqualTo(RecoveryReport.Kind.TORN_TAIL_TRUNCATED);
                assertThat(e.file()).isEqualTo(offsetsFile.toString());
                assertThat(e.position()).isEqualTo(entry(3));
            });
            assertThat(g(store).position()).isEqualTo(20);
            g(store).commit(40);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events()).isEmpty();
            assertThat(g(store).position()).isEqualTo(40);
        }
    }

    @Test
    void aLastCommitCutInsideItsHeaderIsATornTail() {
        StoreFiles.truncate(offsetsFile, entry(3) + 5);
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events()).singleElement()
                    .satisfies(e -> assertThat(e.kind()).isEqualTo(RecoveryReport.Kind.TORN_TAIL_TRUNCATED));
            assertThat(g(store).position()).isEqualTo(20);
        }
    }

    @Test
    void aFlippedByteInAMiddleCommitIsQuarantinedAndCommitsBeforeItKept() {
        StoreFiles.flipByte(offsetsFile, entry(2) + OffsetsDescriptor.OFFSET_OFFSET);
        byte[] asFound = StoreFiles.read(offsetsFile);
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events()).singleElement().satisfies(e -> {
                assertThat(e.kind()).isEqualTo(RecoveryReport.Kind.CORRUPTION_QUARANTINED);
                assertThat(e.file()).isEqualTo(offsetsFile.toString());
                assertThat(e.position()).isEqualTo(entry(2));
            });
            assertThat(StoreFiles.quarantined(StoreFiles.logDir(data, Q))).singleElement().satisfies(p -> {
                assertThat(p.getFileName().toString()).startsWith("offsets.log");
                assertThat(StoreFiles.read(p)).isEqualTo(asFound);
            });
            ConsumerGroup g = g(store);
            assertThat(g.position()).as("the damaged commit and those after it are not trusted").isEqualTo(10);
            assertThat(g.position()).isLessThanOrEqualTo(30);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events()).isEmpty();
            assertThat(g(store).position()).isEqualTo(10);
        }
    }

    @Test
    void aDamagedFirstEntryLeavesTheGroupAtTheStartNeverAhead() {
        StoreFiles.flipByte(offsetsFile, entry(0) + OffsetsDescriptor.CRC_OFFSET);
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events())
                    .anyMatch(e -> e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED);
            assertThat(g(store).position()).isZero();
            assertThat(g(store).hasCommitted()).isFalse();
        }
    }

    @Test
    void underTheFailPolicyDamageInTheOffsetsFileStopsTheOpenNamingFileAndPosition() {
        StoreFiles.flipByte(offsetsFile, entry(1) + OffsetsDescriptor.OFFSET_OFFSET + 2);
        EngineConfig fail = EngineConfig.builder().corruptionPolicy(EngineConfig.CorruptionPolicy.FAIL).build();
        assertThatThrownBy(() -> Mikyu.open(data, fail))
                .isInstanceOfSatisfying(CorruptionException.class, e -> {
                    assertThat(e.file()).isEqualTo(offsetsFile.toString());
                    assertThat(e.position()).isEqualTo(entry(1));
                    assertThat(e.getMessage()).contains("offsets.log").contains("at byte " + entry(1));
                });
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(g(store).position()).isEqualTo(0);
        }
    }

    @Test
    void zerosAfterTheLastCommitAreATornTailNotCorruption() {
        // what a crash can leave when the file length reached the disk before the data did
        StoreFiles.append(offsetsFile, new byte[ENTRY]);
        EngineConfig fail = EngineConfig.builder().corruptionPolicy(EngineConfig.CorruptionPolicy.FAIL).build();
        try (Mikyu store = Mikyu.open(data, fail)) {
            assertThat(store.recoveryReport().events()).singleElement().satisfies(e -> {
                assertThat(e.kind()).isEqualTo(RecoveryReport.Kind.TORN_TAIL_TRUNCATED);
                assertThat(e.position()).isEqualTo(entry(4));
            });
            assertThat(g(store).position()).isEqualTo(30);
        }
    }

    @Test
    void aDeletedGroupStaysDeletedAcrossReopen() {
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.log(Q).deleteGroup("g")).isTrue();
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.log(Q).groups()).isEmpty();
            assertThat(store.recoveryReport().events()).isEmpty();
        }
    }
}
