package io.mikyu.engine.log;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A queue whose creation failed (the fsync making its folder's rename durable failed, or its first segment could
 * not be written while the folder was filled): the creation reports the I/O error, and trying again once
 * the disk answers creates the queue, instead of failing for good on the folder the failed attempt left.
 */
@Timeout(60)
class FailedCreateTest {

    @TempDir
    Path data;

    @Test
    void aLogQueueCanBeCreatedAgainAfterACreationWhoseDirectoryFsyncFailed() throws Exception {
        Path logs = data.toAbsolutePath().normalize().resolve("log");
        try (FaultyFileChannels disk = FaultyFileChannels.install(data); Mikyu store = Mikyu.open(data)) {
            disk.failForces(logs::equals);
            assertThatThrownBy(() -> store.createLog("q")).hasStackTraceContaining("Input/output error");
            disk.heal();
            store.createLog("q").append(Entry.of("kept"));
            assertThat(store.log("q").read(0, 10)).extracting(r -> r.payloadAsString()).containsExactly("kept");
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.log("q").read(0, 10)).extracting(r -> r.payloadAsString()).containsExactly("kept");
        }
    }

    @Test
    void aTaskQueueCanBeCreatedAgainAfterACreationWhoseDirectoryFsyncFailed() throws Exception {
        Path tasks = data.toAbsolutePath().normalize().resolve("task");
        try (FaultyFileChannels disk = FaultyFileChannels.install(data); Mikyu store = Mikyu.open(data)) {
            disk.failForces(tasks::equals);
            assertThatThrownBy(() -> store.createTaskQueue("jobs")).hasStackTraceContaining("Input/output error");
            disk.heal();
            store.getOrCreateTaskQueue("jobs", io.mikyu.engine.TaskQueueConfig.defaults()).enqueue(Task.of("kept"));
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.taskQueue("jobs").dequeue(Duration.ZERO).payloadAsString()).isEqualTo("kept");
        }
    }

    @Test
    void aTaskQueueWhoseFirstSegmentCouldNotBeWrittenCanBeCreatedAgain() throws Exception {
        Path tasks = data.toAbsolutePath().normalize().resolve("task");
        try (FaultyFileChannels disk = FaultyFileChannels.install(data); Mikyu store = Mikyu.open(data)) {
            // the first segments are written while the queue's folder is filled, under a temporary name
            disk.failWritesWithNoSpace(f -> f.startsWith(tasks) && f.toString().contains("jobs")
                    && f.toString().endsWith(".seg"));
            assertThatThrownBy(() -> store.createTaskQueue("jobs")).hasStackTraceContaining("No space left");
            disk.heal();
            store.getOrCreateTaskQueue("jobs", io.mikyu.engine.TaskQueueConfig.defaults()).enqueue(Task.of("kept"));
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.taskQueue("jobs").dequeue(Duration.ZERO).payloadAsString()).isEqualTo("kept");
        }
    }

    @Test
    void aLogQueueWhoseFirstSegmentCouldNotBeWrittenCanBeCreatedAgain() throws Exception {
        Path logs = data.toAbsolutePath().normalize().resolve("log");
        try (FaultyFileChannels disk = FaultyFileChannels.install(data); Mikyu store = Mikyu.open(data)) {
            disk.failWritesWithNoSpace(f -> f.startsWith(logs) && f.getParent().getFileName().toString()
                    .matches("\\.?q(\\.creating)?") && f.toString().endsWith(".seg"));
            assertThatThrownBy(() -> store.createLog("q")).hasStackTraceContaining("No space left");
            disk.heal();
            store.createLog("q").append(Entry.of("kept"));
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.log("q").read(0, 10)).extracting(r -> r.payloadAsString()).containsExactly("kept");
        }
    }
}
