package io.mikyu.engine.recovery;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StorageFailedException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A failed fsync: after it the page cache can no longer be trusted to reach the disk (Linux reports the error once,
 * then a later fsync succeeds without having written the lost pages). The queue must acknowledge nothing more,
 * fail loudly, leave every other queue alone, and recover from the files when the store is reopened.
 */
@Timeout(60)
class FsyncFailureTest {

    @TempDir
    Path data;

    private static Path under(Path store, String kind, String queue) {
        return store.toAbsolutePath().normalize().resolve(kind).resolve(queue);
    }

    private static List<String> payloads(LogQueue q) {
        return q.read(q.startOffset(), 1000).stream()
                .map(r -> new String(r.payload(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void afterAFailedSyncFsyncTheQueueAcknowledgesNothingUntilTheStoreIsReopened() {
        Path queueDir = under(data, "log", "q");
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("q", LogQueueConfig.defaults().withDurability(Durability.SYNC));
            LogQueue other = store.createLog("other", LogQueueConfig.defaults().withDurability(Durability.SYNC));
            q.append(Entry.of("before"));

            faults.failForces(f -> f.startsWith(queueDir) && f.toString().endsWith(".seg"));
            assertThatThrownBy(() -> q.append(Entry.of("not acknowledged")))
                    .as("the append whose fsync failed").hasMessageContaining("fsync");
            faults.heal();

            assertThatThrownBy(() -> q.append(Entry.of("on top of the failure")))
                    .as("a later fsync that succeeds proves nothing about the pages the failed one lost")
                    .isInstanceOf(StorageFailedException.class)
                    .hasMessageContaining("log queue 'q'");
            assertThatThrownBy(store::flush).isInstanceOf(StorageFailedException.class);
            other.append(Entry.of("unaffected"));
            assertThat(payloads(other)).containsExactly("unaffected");
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("q");
            assertThat(payloads(q)).as("recovered from the files").containsExactly("before");
            q.append(Entry.of("after reopen"));
            assertThat(payloads(q)).containsExactly("before", "after reopen");
        }
    }

    @Test
    void aFailedBackgroundFsyncStopsTheQueueInsteadOfBeingForgotten() throws Exception {
        Path queueDir = under(data, "log", "q");
        EngineConfig config = EngineConfig.builder().flushInterval(Duration.ofMillis(20)).build();
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data, config)) {
            LogQueue q = store.createLog("q", LogQueueConfig.defaults().withDurability(Durability.ASYNC));
            q.append(Entry.of("first"));
            store.flush();

            faults.failForces(f -> f.startsWith(queueDir) && f.toString().endsWith(".seg"));
            q.append(Entry.of("written, fsync fails"));
            await("the flusher tried and failed").atMost(Duration.ofSeconds(30))
                    .until(() -> faults.failedForces() > 0);
            faults.heal();

            assertThatThrownBy(store::flush).as("flush() must not report success over the lost fsync")
                    .isInstanceOf(StorageFailedException.class);
            assertThatThrownBy(() -> q.append(Entry.of("sync on top"), Durability.SYNC))
                    .isInstanceOf(StorageFailedException.class);
            assertThatThrownBy(() -> q.append(Entry.of("async on top")))
                    .isInstanceOf(StorageFailedException.class);
        }
        try (Mikyu store = Mikyu.open(data, config)) {
            List<String> recovered = payloads(store.log("q"));
            assertThat(recovered).as("whatever reached the file, never what was refused")
                    .startsWith("first").doesNotContain("sync on top", "async on top");
            store.log("q").append(Entry.of("after reopen"));
            assertThat(payloads(store.log("q"))).endsWith("after reopen");
        }
    }

    @Test
    void aTaskQueueWhoseFsyncFailedStopsAndIsRecoveredOnReopen() throws InterruptedException {
        Path queueDir = under(data, "task", "jobs");
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = Mikyu.open(data)) {
            TaskQueue jobs = store.createTaskQueue("jobs",
                    io.mikyu.engine.TaskQueueConfig.defaults().withDurability(Durability.SYNC));
            jobs.enqueue(Task.of("kept"));
            faults.failForces(f -> f.startsWith(queueDir) && f.toString().endsWith(".seg"));
            assertThatThrownBy(() -> jobs.enqueue(Task.of("refused"))).hasMessageContaining("fsync");
            faults.heal();
            assertThatThrownBy(() -> jobs.enqueue(Task.of("refused too")))
                    .isInstanceOf(StorageFailedException.class);
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue jobs = store.taskQueue("jobs");
            List<String> ready = jobs.dequeue(10, Duration.ofSeconds(30), Duration.ZERO, null).stream()
                    .map(t -> new String(t.payload(), StandardCharsets.UTF_8)).toList();
            assertThat(ready).containsExactly("kept");
        }
    }
}
