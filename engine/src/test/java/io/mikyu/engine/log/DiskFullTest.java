package io.mikyu.engine.log;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.support.Fill;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Below the free-space floor appends fail fast, say where, write nothing, and the store stays readable. */
@Timeout(60)
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
                // fails rather than waits for room: a wait would never end (the test's timeout bounds it)
                assertThatThrownBy(() -> q.append(Entry.of("no room"), d))
                        .isInstanceOf(StorageFullException.class)
                        .hasMessageContaining(data.toString())
                        .hasMessageContaining("minFreeDiskBytes");
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
    void appendsSucceedAgainOnceSpaceReturns() throws Exception {
        // A floor just below today's free space, then a real file that takes the disk under it.
        long free = Files.getFileStore(data).getUsableSpace();
        long floor = free - (64L << 20);
        Path filler = data.resolveSibling(data.getFileName() + ".filler");
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        EngineConfig tight = EngineConfig.builder().minFreeDiskBytes(floor).timeSource(clock).build();
        try (Mikyu store = Mikyu.open(data, tight)) {
            LogQueue q = store.createLog("q");
            assertThat(q.append(Entry.of("before"))).isZero();
            fill(filler, 192L << 20);
            try {
                clock.advance(Duration.ofMillis(500)); // the guard samples free space every 500 ms while there is room
                assertThatThrownBy(() -> q.append(Entry.of("full"))).isInstanceOf(StorageFullException.class);
            } finally {
                Files.delete(filler);
            }
            assertThat(q.append(Entry.of("after"))).as("next append after space returned").isEqualTo(1);
            assertThat(q.read(0, 10)).extracting(r -> r.payloadAsString()).containsExactly("before", "after");
        } finally {
            Files.deleteIfExists(filler);
        }
    }

    private static void fill(Path file, long bytes) throws java.io.IOException {
        java.nio.ByteBuffer block = java.nio.ByteBuffer.allocateDirect(1 << 20);
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
            for (long written = 0; written < bytes; ) {
                block.clear();
                written += ch.write(block);
            }
            ch.force(true);
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
