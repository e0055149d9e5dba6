package io.mikyu.engine.recovery;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.internal.format.IndexDescriptor;
import io.mikyu.engine.support.Fill;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Indexes are derived data: a damaged one is detected, rebuilt from its segment, and reads stay correct. */
class IndexDamageRecoveryTest {

    private static final String Q = "i";
    private static final int RECORDS = 400;
    private static final long T0 = 1_600_000_000_000L;

    @TempDir
    Path data;

    private final EngineConfig config = EngineConfig.builder().indexIntervalBytes(256).build();
    private List<Path> segments;

    @BeforeEach
    void writeSegmentsWithDenseIndexes() {
        try (Mikyu store = Mikyu.open(data, config)) {
            LogQueue q = store.createLog(Q, LogQueueConfig.defaults().withSegmentBytes(16 * 1024));
            for (int i = 0; i < RECORDS; i++) {
                assertThat(q.append(Entry.of(Fill.payload(i)).withTimestamp(T0 + i * 1000L))).isEqualTo(i);
            }
        }
        segments = StoreFiles.segments(StoreFiles.logDir(data, Q));
        assertThat(segments).hasSizeGreaterThanOrEqualTo(3);
    }

    private void assertAllReadable(Mikyu store) {
        LogQueue q = store.log(Q);
        Fill.assertIntact(q, 0, RECORDS);
        for (int i = 0; i < RECORDS; i += 7) {
            assertThat(q.read(i).payloadAsString()).isEqualTo(Fill.payload(i));
            assertThat(q.offsetForTimestamp(T0 + i * 1000L)).isEqualTo(i);
            assertThat(q.offsetForTimestamp(T0 + i * 1000L - 500)).isEqualTo(i);
        }
    }

    private static void assertRebuilt(Mikyu store, Path index) {
        assertThat(store.recoveryReport().events()).as(store.recoveryReport().toString())
                .filteredOn(e -> e.kind() == RecoveryReport.Kind.INDEX_REBUILT)
                .singleElement().satisfies(e -> assertThat(e.file()).isEqualTo(index.toString()));
        assertThat(store.recoveryReport().isClean()).isTrue();
    }

    @Test
    void aFlippedByteInTheMiddleOfAnIndexIsDetectedAndTheIndexRebuilt() {
        Path index = StoreFiles.indexOf(segments.get(1));
        long size = StoreFiles.size(index);
        int entries = (int) ((size - IndexDescriptor.HEADER_LENGTH) / IndexDescriptor.ENTRY_LENGTH);
        assertThat(entries).isGreaterThan(8);
        StoreFiles.flipByte(index, IndexDescriptor.entryOffset(entries / 2) + IndexDescriptor.ENTRY_POSITION);

        try (Mikyu store = Mikyu.open(data, config)) {
            assertRebuilt(store, index);
            assertAllReadable(store);
        }
        try (Mikyu store = Mikyu.open(data, config)) {
            assertThat(store.recoveryReport().events()).as("the rebuilt index was written back").isEmpty();
            assertAllReadable(store);
        }
    }

    @Test
    void aTruncatedIndexIsRebuilt() {
        Path index = StoreFiles.indexOf(segments.get(0));
        StoreFiles.truncate(index, StoreFiles.size(index) - 5);
        try (Mikyu store = Mikyu.open(data, config)) {
            assertRebuilt(store, index);
            assertAllReadable(store);
        }
    }

    @Test
    void anIndexBelongingToAnotherSegmentIsRebuilt() throws Exception {
        Path index = StoreFiles.indexOf(segments.get(0));
        Files.copy(StoreFiles.indexOf(segments.get(1)), index, StandardCopyOption.REPLACE_EXISTING);
        try (Mikyu store = Mikyu.open(data, config)) {
            assertRebuilt(store, index);
            assertAllReadable(store);
        }
    }

    @Test
    void aMissingIndexIsRebuilt() throws Exception {
        Path index = StoreFiles.indexOf(segments.get(1));
        Files.delete(index);
        try (Mikyu store = Mikyu.open(data, config)) {
            assertRebuilt(store, index);
            assertAllReadable(store);
        }
        assertThat(index).exists();
    }

    @Test
    void aDamagedIndexOfTheLastSegmentMeansAScanOfIt() {
        Path last = segments.get(segments.size() - 1);
        Path index = StoreFiles.indexOf(last);
        assertThat(index).as("written by the clean close").exists();
        StoreFiles.flipByte(index, IndexDescriptor.HEADER_LENGTH + 3);
        try (Mikyu store = Mikyu.open(data, config)) {
            assertThat(store.recoveryReport().events()).singleElement().satisfies(e -> {
                assertThat(e.kind()).isEqualTo(RecoveryReport.Kind.UNCLEAN_SHUTDOWN_SCAN);
                assertThat(e.file()).isEqualTo(last.toString());
            });
            assertAllReadable(store);
            assertThat(store.log(Q).append(Entry.of("more"))).isEqualTo(RECORDS);
        }
    }

    @Test
    void aCleanReopenReadsNoSegmentAndReportsNothing() {
        try (Mikyu store = Mikyu.open(data, config)) {
            assertThat(store.recoveryReport().events()).isEmpty();
            assertThat(store.recoveryReport().isClean()).isTrue();
            assertAllReadable(store);
        }
    }
}
