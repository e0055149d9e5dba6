package io.mikyu.engine.recovery;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code queue.conf} (a queue's settings) is written into a hidden folder that is then renamed into place. It must
 * be on disk before that rename, or a power loss can leave a queue folder with an empty one; and a damaged one must
 * cost that queue only, not the store.
 */
@Timeout(60)
class QueueConfigRecoveryTest {

    @TempDir
    Path data;

    @Test
    void queueConfIsFsyncedBeforeItsFolderIsRenamedIntoPlaceAndTheParentFolderAfter() {
        Path root = data.toAbsolutePath().normalize();
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data)) {
            List<Path> made = faults.forced();
            int format = indexOf(made, p -> p.getFileName().toString().contains("FORMAT"));
            assertThat(format).as("FORMAT's content fsynced when the store is made, in %s", made).isNotNegative();
            assertThat(made.subList(format, made.size())).as("then the data directory, in %s", made).contains(root);
            for (String kind : List.of("log", "task", "shared")) {
                int before = faults.forced().size();
                Path parent;
                switch (kind) {
                    case "log" -> {
                        store.createLog("l");
                        parent = root.resolve("log");
                    }
                    case "task" -> {
                        store.createTaskQueue("t");
                        parent = root.resolve("task");
                    }
                    default -> {
                        store.log("l").sharedGroup("g", SharedGroupConfig.defaults());
                        parent = root.resolve("log").resolve("l").resolve("shared-groups");
                    }
                }
                List<Path> all = faults.forced();
                List<Path> forced = all.subList(before, all.size());
                int conf = indexOf(forced, p -> p.getFileName().toString().contains("queue.conf"));
                int hiddenFolder = indexOf(forced, p -> p.getFileName().toString().endsWith(".creating"));
                assertThat(conf).as("%s: queue.conf fsynced, in %s", kind, forced).isNotNegative();
                assertThat(hiddenFolder).as("%s: its folder fsynced after it, in %s", kind, forced).isGreaterThan(conf);
                assertThat(forced.lastIndexOf(parent)).as("%s: the parent fsynced after the rename, in %s", kind, forced)
                        .isGreaterThan(hiddenFolder);
            }
        }
    }

    private static int indexOf(List<Path> paths, java.util.function.Predicate<Path> match) {
        for (int i = 0; i < paths.size(); i++) {
            if (match.test(paths.get(i))) {
                return i;
            }
        }
        return -1;
    }

    @ParameterizedTest(name = "queue.conf {0}")
    @ValueSource(strings = {"empty", "garbage", "invalid"})
    void aQueueWithADamagedQueueConfIsSetAsideAndTheRestOfTheStoreOpens(String damage) throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            store.createLog("broken").append(Entry.of("kept on disk"));
            store.createLog("fine").append(Entry.of("f1"));
            store.createTaskQueue("jobs-broken").enqueue(Task.of("j1"));
            store.createTaskQueue("jobs").enqueue(Task.of("j2"));
            store.createLog("groups").sharedGroup("g-broken", SharedGroupConfig.defaults());
            store.log("groups").sharedGroup("g", SharedGroupConfig.defaults());
            store.log("groups").append(Entry.of("g1"));
        }
        Path logConf = data.resolve("log/broken/queue.conf");
        Path taskConf = data.resolve("task/jobs-broken/queue.conf");
        Path groupConf = data.resolve("log/groups/shared-groups/g-broken/queue.conf");
        byte[] original = Files.readAllBytes(logConf);
        for (Path conf : List.of(logConf, taskConf, groupConf)) {
            damage(conf, damage);
        }

        try (Mikyu store = Mikyu.open(data)) {
            RecoveryReport report = store.recoveryReport();
            assertThat(report.events()).filteredOn(e -> e.kind() == RecoveryReport.Kind.QUEUE_QUARANTINED)
                    .extracting(RecoveryReport.Event::file)
                    .containsExactlyInAnyOrder(logConf.toAbsolutePath().toString(),
                            taskConf.toAbsolutePath().toString(), groupConf.toAbsolutePath().toString());
            assertThat(report.isClean()).isFalse();

            assertThat(store.list(QueueKind.LOG)).contains("fine", "groups").doesNotContain("broken");
            assertThat(store.list(QueueKind.TASK)).contains("jobs").doesNotContain("jobs-broken");
            assertThat(store.log("fine").read(0, 10)).hasSize(1);
            assertThat(store.taskQueue("jobs").counts().depth()).isEqualTo(1);
            assertThat(store.log("groups").groups()).doesNotContain("g-broken");
            assertThat(store.log("groups").sharedGroup("g", SharedGroupConfig.defaults())
                    .fetch(10, Duration.ofSeconds(30), Duration.ofSeconds(5))).as("the healthy group works").hasSize(1);

            assertThatThrownBy(() -> store.createLog("broken")).isInstanceOf(QueueExistsException.class)
                    .hasMessageContaining("queue.conf");
            assertThatThrownBy(() -> store.createTaskQueue("jobs-broken")).isInstanceOf(QueueExistsException.class)
                    .hasMessageContaining("queue.conf");
            assertThatThrownBy(() -> store.log("groups").sharedGroup("g-broken", SharedGroupConfig.defaults()))
                    .isInstanceOf(QueueExistsException.class).hasMessageContaining("queue.conf");
        }

        // The operator restores the file: the queue is back with its data.
        Files.write(logConf, original);
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue broken = store.log("broken");
            assertThat(new String(broken.read(0, 10).get(0).payload(), StandardCharsets.UTF_8))
                    .isEqualTo("kept on disk");
        }
    }

    private static void damage(Path conf, String how) throws Exception {
        switch (how) {
            case "empty" -> Files.write(conf, new byte[0]);
            case "garbage" -> Files.write(conf, new byte[]{(byte) 0xff, (byte) 0xfe, 0, 0, 0x12, 0x7f});
            case "invalid" -> Files.writeString(conf, Files.readString(conf)
                    .replaceAll("segment\\.bytes=\\d+", "segment.bytes=lots"));
            default -> throw new IllegalArgumentException(how);
        }
    }
}
