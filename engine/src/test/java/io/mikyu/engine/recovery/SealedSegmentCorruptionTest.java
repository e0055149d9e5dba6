package io.mikyu.engine.recovery;

import io.mikyu.engine.CorruptionException;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A flipped byte inside a sealed (not the last) segment: found on read, or at open when the segment is scanned. */
class SealedSegmentCorruptionTest {

    private static final String Q = "s";
    private static final int RECORDS = 150;

    @TempDir
    Path data;

    private Path victim;
    private StoreFiles.Batch damaged;
    private long victimEnd;

    @BeforeEach
    void writeSmallSegmentsAndDamageTheSecond() {
        try (Mikyu store = Mikyu.open(data)) {
            Fill.append(store.createLog(Q, LogQueueConfig.defaults().withSegmentBytes(4096)), 0, RECORDS);
        }
        List<Path> segs = StoreFiles.segments(queueDir());
        assertThat(segs).hasSizeGreaterThanOrEqualTo(4);
        victim = segs.get(1);
        List<StoreFiles.Batch> batches = StoreFiles.batches(victim);
        damaged = batches.get(batches.size() / 2);
        victimEnd = batches.get(batches.size() - 1).lastOffset() + 1;
        // a byte in the middle of the first record's payload
        StoreFiles.flipByte(victim, damaged.position() + BatchDescriptor.HEADER_LENGTH
                + RecordDescriptor.HEADER_LENGTH + 20);
    }

    private Path queueDir() {
        return StoreFiles.logDir(data, Q);
    }

    @Test
    void readingARecordDamagedInASealedSegmentThrowsCorruptionNamingFileAndPosition() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log(Q);
            assertThatThrownBy(() -> q.read(damaged.baseOffset()))
                    .isInstanceOfSatisfying(CorruptionException.class, e -> {
                        assertThat(e.file()).isEqualTo(victim.toString());
                        assertThat(e.position()).isEqualTo(damaged.position());
                        assertThat(e.getMessage()).contains(victim.toString())
                                .contains("at byte " + damaged.position());
                    });
            assertThatThrownBy(() -> q.read(0, RECORDS)).isInstanceOf(CorruptionException.class);
            for (long i = 0; i < damaged.baseOffset(); i++) {
                assertThat(q.read(i).payloadAsString()).isEqualTo(Fill.payload(i));
            }
            Fill.assertIntact(q, victimEnd, RECORDS);
        }
    }

    @Test
    void aDamagedSegmentWhoseIndexIsMissingIsQuarantinedAndEverythingBeforeTheDamageKept() throws Exception {
        Files.delete(StoreFiles.indexOf(victim));
        assertRecoveredByQuarantine();
    }

    @Test
    void aDamagedSegmentWhoseIndexIsDamagedTooIsQuarantined() {
        StoreFiles.flipByte(StoreFiles.indexOf(victim), 40);
        assertRecoveredByQuarantine();
    }

    private void assertRecoveredByQuarantine() {
        byte[] damagedBytes = StoreFiles.read(victim);
        try (Mikyu store = Mikyu.open(data)) {
            List<RecoveryReport.Event> events = store.recoveryReport().events();
            assertThat(events).anySatisfy(e -> {
                assertThat(e.kind()).isEqualTo(RecoveryReport.Kind.INDEX_REBUILT);
                assertThat(e.file()).isEqualTo(StoreFiles.indexOf(victim).toString());
            });
            assertThat(events).filteredOn(e -> e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED)
                    .singleElement().satisfies(e -> {
                        assertThat(e.file()).isEqualTo(victim.toString());
                        assertThat(e.position()).isEqualTo(damaged.position());
                    });
            assertThat(store.recoveryReport().isClean()).isFalse();

            List<Path> quarantined = StoreFiles.quarantined(queueDir());
            assertThat(quarantined).singleElement().satisfies(p -> {
                assertThat(p.getFileName().toString()).startsWith(victim.getFileName().toString());
                assertThat(StoreFiles.read(p)).as("the original, as found").isEqualTo(damagedBytes);
            });

            LogQueue q = store.log(Q);
            assertThat(q.startOffset()).isZero();
            assertThat(q.endOffset()).isEqualTo(RECORDS);
            Fill.assertIntact(q, 0, damaged.baseOffset());
            assertThat(q.read(damaged.baseOffset())).as("lost to the damage").isNull();
            Fill.assertIntact(q, victimEnd, RECORDS);
            assertThat(q.read(0, 1000)).extracting(r -> r.offset())
                    .doesNotContain(damaged.baseOffset())
                    .hasSize((int) (RECORDS - (victimEnd - damaged.baseOffset())));
            assertThat(q.append(Entry.of(Fill.payload(RECORDS)))).isEqualTo(RECORDS);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().isClean()).as("damage is handled once: " + store.recoveryReport())
                    .isTrue();
            Fill.assertIntact(store.log(Q), 0, damaged.baseOffset());
            Fill.assertIntact(store.log(Q), victimEnd, RECORDS + 1);
        }
    }

    @Test
    void underTheFailPolicyOpeningThrowsNamingFileAndPositionAndChangesNothing() throws Exception {
        Files.delete(StoreFiles.indexOf(victim));
        byte[] before = StoreFiles.read(victim);
        EngineConfig fail = EngineConfig.builder().corruptionPolicy(EngineConfig.CorruptionPolicy.FAIL).build();

        assertThatThrownBy(() -> Mikyu.open(data, fail))
                .isInstanceOfSatisfying(CorruptionException.class, e -> {
                    assertThat(e.file()).isEqualTo(victim.toString());
                    assertThat(e.position()).isEqualTo(damaged.position());
                    assertThat(e.getMessage()).contains(victim.toString()).contains("at byte " + damaged.position());
                });
        assertThat(StoreFiles.read(victim)).isEqualTo(before);
        assertThat(StoreFiles.quarantined(queueDir())).isEmpty();

        // the failed open released the directory
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events())
                    .anyMatch(e -> e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED);
        }
    }

    @Test
    void withChecksumsOffOnReadTheSealedSegmentStillNeverReturnsDamagedBytesAfterAScan() throws Exception {
        Files.delete(StoreFiles.indexOf(victim));
        EngineConfig noVerify = EngineConfig.builder().verifyChecksumsOnRead(false).build();
        try (Mikyu store = Mikyu.open(data, noVerify)) {
            LogQueue q = store.log(Q);
            assertThat(q.read(0, 10_000)).allSatisfy(r ->
                    assertThat(r.payloadAsString()).isEqualTo(Fill.payload(r.offset())));
        }
    }
}
