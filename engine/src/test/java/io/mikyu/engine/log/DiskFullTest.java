package io.mikyu.engine.log;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.support.Fill;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Below the free-space floor appends fail fast, say where, write nothing, and the store stays readable. */
class DiskFullTest {

    private static final EngineConfig NO_ROOM = EngineConfig.builder().minFreeDiskBytes(Long.MAX_VALUE / 4).build();

    @TempDir
    Path data;

    @Test
    void appendsFailFastNamingTheDataDirectoryAndTheStoreStaysReadable() {
        try (Mikyu store = Mikyu.open(data)) {
            Fill.append(store.createLog("q"), 0, 20);
        }
        try (Mikyu store = Mikyu.open(data, NO_ROOM)) {
            LogQueue q = store.log("q");
            for (Durability d : Durability.values()) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> q.append(Entry.of("no room"), d))
                        .isInstanceOf(StorageFullException.class)
                        .hasMessageContaining(data.toString())
                        .hasMessageContaining("minFreeDiskBytes");
                assertThat((System.nanoTime() - start) / 1_000_000).as("fails fast").isLessThan(2000);
            }
            assertThatThrownBy(() -> q.appendBatch(List.of(Entry.of("a"), Entry.of("b"))))
                    .isInstanceOf(StorageFullException.class);
            assertThat(q.endOffset()).isEqualTo(20);
            Fill.assertIntact(q, 0, 20);
            assertThat(q.read(20, 10)).as("nothing half-written is visible").isEmpty();
            assertThat(q.group("g").position()).isZero();
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("q");
            assertThat(store.recoveryReport().isClean()).isTrue();
            assertThat(q.endOffset()).isEqualTo(20);
            assertThat(q.append(Entry.of(Fill.payload(20)))).isEqualTo(20);
            Fill.assertIntact(q, 0, 21);
        }
    }

    @Test
    void aNewQueueOnAFullDiskStaysEmpty() {
        try (Mikyu store = Mikyu.open(data, NO_ROOM)) {
            LogQueue q = store.createLog("empty");
            assertThatThrownBy(() -> q.append(Entry.of("x"))).isInstanceOf(StorageFullException.class);
            assertThat(q.endOffset()).isZero();
            assertThat(q.read(0, 10)).isEmpty();
            assertThat(store.stats().appendedRecords()).isZero();
        }
    }
}
