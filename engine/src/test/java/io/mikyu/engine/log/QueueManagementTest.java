package io.mikyu.engine.log;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.StoreLockedException;
import io.mikyu.engine.support.Fill;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueueManagementTest {

    @TempDir
    Path data;

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a/b", "a\\b", ".hidden", "-dash", "a b", "quarantine", "tab\there", "é"})
    void invalidQueueNamesAreRejected(String name) {
        try (Mikyu store = Mikyu.open(data)) {
            assertThatThrownBy(() -> store.createLog(name)).isInstanceOf(InvalidQueueNameException.class);
            assertThat(store.list(QueueKind.LOG)).isEmpty();
        }
    }

    @Test
    void namesAreLimitedTo200Characters() {
        try (Mikyu store = Mikyu.open(data)) {
            assertThatThrownBy(() -> store.createLog("x".repeat(201)))
                    .isInstanceOf(InvalidQueueNameException.class).hasMessageContaining("200");
            assertThatThrownBy(() -> store.createLog(null)).isInstanceOf(InvalidQueueNameException.class);
            assertThat(store.createLog("x".repeat(200)).name()).hasSize(200);
            assertThat(store.createLog("a-b_c.1").name()).isEqualTo("a-b_c.1");
        }
    }

    @Test
    void aRecordOverMaxRecordBytesIsRejectedAndNothingIsWritten() {
        EngineConfig limits = EngineConfig.builder().maxRecordBytes(1024).build();
        try (Mikyu store = Mikyu.open(data, limits)) {
            LogQueue q = store.createLog("q");
            q.append(Entry.of("ok"));
            assertThatThrownBy(() -> q.append(Entry.of(new byte[2000])))
                    .isInstanceOf(RecordTooLargeException.class).hasMessageContaining("1024");
            assertThatThrownBy(() -> q.appendBatch(List.of(Entry.of("fine"), Entry.of(new byte[2000]))))
                    .isInstanceOf(RecordTooLargeException.class);
            assertThatThrownBy(() -> q.append(Entry.of(new byte[2000]), Durability.SYNC))
                    .isInstanceOf(RecordTooLargeException.class);
            assertThat(q.endOffset()).isEqualTo(1);
            assertThat(q.read(0, 10)).hasSize(1);
        }
        try (Mikyu store = Mikyu.open(data, limits)) {
            assertThat(store.log("q").endOffset()).isEqualTo(1);
            assertThat(store.log("q").read(0, 10)).hasSize(1);
        }
    }

    @Test
    void creatingAnExistingQueueFailsAndGetOrCreateReturnsIt() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("q");
            q.append(Entry.of("x"));
            assertThatThrownBy(() -> store.createLog("q")).isInstanceOf(QueueExistsException.class)
                    .hasMessageContaining("'q'");
            assertThat(store.getOrCreateLog("q", LogQueueConfig.defaults()).endOffset()).isEqualTo(1);
            assertThat(store.getOrCreateLog("new", LogQueueConfig.defaults()).endOffset()).isZero();
        }
    }

    @Test
    void anUnknownQueueIsNotFound() {
        try (Mikyu store = Mikyu.open(data)) {
            assertThatThrownBy(() -> store.log("nope")).isInstanceOf(QueueNotFoundException.class)
                    .hasMessageContaining("nope");
            assertThat(store.deleteLog("nope")).isFalse();
        }
    }

    @Test
    void deleteLogRemovesItsFilesAndGroupsAndTheNameCanBeReused() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("doomed", LogQueueConfig.defaults().withSegmentBytes(4096));
            Fill.append(q, 0, 100);
            q.group("g").commit(50);
            Path dir = StoreFiles.logDir(data, "doomed");
            assertThat(dir).isDirectory();
            assertThat(store.deleteLog("doomed")).isTrue();
            assertThat(dir).doesNotExist();
            try (var files = Files.list(data.resolve("log"))) {
                assertThat(files).as("no leftovers").isEmpty();
            }
            assertThat(store.list(QueueKind.LOG)).isEmpty();
            assertThatThrownBy(() -> store.log("doomed")).isInstanceOf(QueueNotFoundException.class);
            assertThatThrownBy(() -> q.append(Entry.of("late"))).isInstanceOf(MikyuException.class);

            LogQueue again = store.createLog("doomed");
            assertThat(again.endOffset()).isZero();
            assertThat(again.groups()).isEmpty();
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.log("doomed").endOffset()).isZero();
        }
    }

    @Test
    void listReturnsTheQueuesOfAKindSorted() {
        try (Mikyu store = Mikyu.open(data)) {
            store.createLog("zeta");
            store.createLog("alpha");
            store.createLog("mid");
            assertThat(store.list(QueueKind.LOG)).containsExactly("alpha", "mid", "zeta");
            assertThat(store.list(QueueKind.TASK)).isEmpty();
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.list(QueueKind.LOG)).containsExactly("alpha", "mid", "zeta");
        }
    }

    @Test
    void aQueueKeepsItsConfigurationAcrossReopen() {
        LogQueueConfig config = LogQueueConfig.defaults().withDurability(Durability.SYNC)
                .withRetentionAge(Duration.ofMinutes(90)).withRetentionBytes(1 << 20).withCompaction(true)
                .withTombstoneRetention(Duration.ofMinutes(5)).withSegmentBytes(64 * 1024);
        try (Mikyu store = Mikyu.open(data)) {
            store.createLog("conf", config);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.log("conf").config()).isEqualTo(config);
        }
    }

    @Test
    void openingTheSameDirectoryTwiceInOneProcessIsRefused() {
        try (Mikyu store = Mikyu.open(data)) {
            assertThatThrownBy(() -> Mikyu.open(data)).isInstanceOf(StoreLockedException.class)
                    .hasMessageContaining(data.toString());
            assertThatThrownBy(() -> Mikyu.open(data.resolve(".").resolve("..").resolve(data.getFileName())))
                    .as("the same directory by another path").isInstanceOf(StoreLockedException.class);
            store.createLog("still-usable").append(Entry.of("x"));
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.log("still-usable").endOffset()).isEqualTo(1);
        }
    }

    @Test
    void anOpenThatFailsWithAnErrorReleasesTheDirectory() {
        // what an application server does when a class the engine needs is not visible to it
        io.micrometer.core.instrument.MeterRegistry broken = new io.micrometer.core.instrument.simple.SimpleMeterRegistry() {
            @Override
            protected io.micrometer.core.instrument.Counter newCounter(io.micrometer.core.instrument.Meter.Id id) {
                throw new NoClassDefFoundError("sun/misc/Unsafe");
            }

            @Override
            protected io.micrometer.core.instrument.Timer newTimer(io.micrometer.core.instrument.Meter.Id id,
                    io.micrometer.core.instrument.distribution.DistributionStatisticConfig config,
                    io.micrometer.core.instrument.distribution.pause.PauseDetector pauseDetector) {
                throw new NoClassDefFoundError("sun/misc/Unsafe");
            }

            @Override
            protected <T> io.micrometer.core.instrument.Gauge newGauge(io.micrometer.core.instrument.Meter.Id id,
                    T obj, java.util.function.ToDoubleFunction<T> f) {
                throw new NoClassDefFoundError("sun/misc/Unsafe");
            }
        };
        assertThatThrownBy(() -> Mikyu.open(data, EngineConfig.builder().meterRegistry(broken).build()))
                .isInstanceOf(NoClassDefFoundError.class);
        try (Mikyu store = Mikyu.open(data)) {
            store.createLog("opens").append(Entry.of("x"));
        }
    }

    @Test
    void aClosedStoreRefusesWorkAndClosingTwiceIsHarmless() {
        Mikyu store = Mikyu.open(data);
        LogQueue q = store.createLog("q");
        q.append(Entry.of("x"));
        store.close();
        store.close();
        assertThatThrownBy(() -> store.createLog("other")).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.log("q")).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> q.append(Entry.of("y"))).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> q.read(0, 1)).isInstanceOf(StoreClosedException.class);
        try (Mikyu reopened = Mikyu.open(data)) {
            assertThat(reopened.log("q").endOffset()).isEqualTo(1);
        }
    }

    @Test
    void theStoreCreatesItsLayoutAndReportsACleanFirstOpen() {
        try (Mikyu store = Mikyu.open(data.resolve("fresh/nested"))) {
            assertThat(store.recoveryReport().events()).isEmpty();
            assertThat(store.recoveryReport().isClean()).isTrue();
            assertThat(store.location()).isEqualTo(data.resolve("fresh/nested").toString());
            assertThat(data.resolve("fresh/nested/FORMAT")).exists();
            assertThat(data.resolve("fresh/nested/log")).isDirectory();
        }
    }

    @Test
    void leftoversOfAnInterruptedCreateOrDeleteAreCleanedUpOnOpen() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            store.createLog("kept");
        }
        Path creating = data.resolve("log/.half.creating");
        Path deleting = data.resolve("log/.gone.deleting-12345");
        Files.createDirectories(creating);
        Files.writeString(creating.resolve("queue.conf"), "# mikyu-queue-config 1\n");
        Files.createDirectories(deleting);
        Files.writeString(deleting.resolve("00000000000000000000.seg"), "x");
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.list(QueueKind.LOG)).containsExactly("kept");
            assertThat(creating).doesNotExist();
            assertThat(deleting).doesNotExist();
            assertThat(store.createLog("half").endOffset()).isZero();
        }
    }
}
