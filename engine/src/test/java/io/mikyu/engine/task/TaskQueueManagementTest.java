package io.mikyu.engine.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static io.mikyu.engine.task.TaskTesting.fast;
import static io.mikyu.engine.task.TaskTesting.payloads;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class TaskQueueManagementTest {

    @TempDir
    Path data;

    @Test
    void creatingAnExistingTaskQueueFailsAndGetOrCreateReturnsIt() {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("x"));
            assertThatThrownBy(() -> store.createTaskQueue("jobs", fast())).isInstanceOf(QueueExistsException.class)
                    .hasMessageContaining("jobs");
            assertThatThrownBy(() -> store.createTaskQueue("jobs")).isInstanceOf(QueueExistsException.class);
            TaskQueue same = store.getOrCreateTaskQueue("jobs", fast().withMaxAttempts(1));
            assertThat(same.counts().ready()).isEqualTo(1);
            assertThat(same.config().maxAttempts()).as("the existing queue's config, not the argument's")
                    .isEqualTo(fast().maxAttempts());
            assertThat(store.taskQueue("jobs").counts().ready()).isEqualTo(1);
            TaskQueue fresh = store.getOrCreateTaskQueue("fresh", fast());
            assertThat(fresh.counts().depth()).isZero();
            assertThat(store.list(QueueKind.TASK)).containsExactly("fresh", "fresh/dlq", "jobs", "jobs/dlq");
        }
    }

    @Test
    void anUnknownTaskQueueIsNotFound() {
        try (Mikyu store = Mikyu.open(data)) {
            assertThatThrownBy(() -> store.taskQueue("nope")).isInstanceOf(QueueNotFoundException.class)
                    .hasMessageContaining("nope");
            assertThatThrownBy(() -> store.taskQueue("nope/dlq")).isInstanceOf(QueueNotFoundException.class);
            assertThat(store.deleteTaskQueue("nope")).isFalse();
            assertThat(store.list(QueueKind.TASK)).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a\\b", ".hidden", "-dash", "a b", "quarantine", "x/dlq", "a/b", "dlq/"})
    void invalidTaskQueueNamesAreRejected(String name) {
        try (Mikyu store = Mikyu.open(data)) {
            assertThatThrownBy(() -> store.createTaskQueue(name, fast())).isInstanceOf(
                    InvalidQueueNameException.class);
            assertThat(store.list(QueueKind.TASK)).isEmpty();
        }
    }

    @Test
    void theConfigIsStoredWithTheQueue() {
        TaskQueueConfig config = TaskQueueConfig.defaults().withMaxAttempts(7)
                .withBackoff(Duration.ofMillis(123), 3.0, Duration.ofSeconds(9))
                .withDefaultLease(Duration.ofSeconds(17)).withDurability(Durability.SYNC)
                .withSegmentBytes(1024 * 1024);
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.createTaskQueue("jobs", config).config()).isEqualTo(config);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.taskQueue("jobs").config()).isEqualTo(config);
            assertThat(store.getOrCreateTaskQueue("jobs", fast()).config()).isEqualTo(config);
        }
    }

    @Test
    void createWithoutConfigUsesTheStoreDefaultDurability() {
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().defaultDurability(Durability.SYNC).build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            assertThat(q.config().durability()).isEqualTo(Durability.SYNC);
            assertThat(q.config().maxAttempts()).isEqualTo(TaskQueueConfig.defaults().maxAttempts());
        }
    }

    @Test
    void deleteTaskQueueRemovesItWithItsDeadLettersAndTheNameCanBeReused() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withMaxAttempts(1));
            store.createTaskQueue("other", fast()).enqueue(Task.of("stays"));
            q.enqueue(Task.of("a"));
            q.enqueue(Task.of("b"));
            q.nack(takeNow(q, 1).get(0).token(), null, "fail");
            assertThat(q.deadLetters().counts().ready()).isEqualTo(1);

            assertThat(store.deleteTaskQueue("jobs")).isTrue();
            assertThat(store.list(QueueKind.TASK)).containsExactly("other", "other/dlq");
            assertThatThrownBy(() -> store.taskQueue("jobs")).isInstanceOf(QueueNotFoundException.class);
            assertThatThrownBy(() -> store.taskQueue("jobs/dlq")).isInstanceOf(QueueNotFoundException.class);
            assertThatThrownBy(() -> q.enqueue(Task.of("late"))).isInstanceOf(MikyuException.class);
            assertThat(store.deleteTaskQueue("jobs")).isFalse();
            assertThat(leftovers(data.resolve("task"))).as("no files of jobs left")
                    .noneMatch(p -> p.contains("jobs"));

            TaskQueue again = store.createTaskQueue("jobs", fast());
            assertThat(again.counts()).isEqualTo(new TaskCounts(0, 0, 0));
            assertThat(again.deadLetters().counts().depth()).isZero();
            again.enqueue(Task.of("new"));
            assertThat(payloads(takeNow(again, 10))).containsExactly("new");
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.list(QueueKind.TASK)).containsExactly("jobs", "jobs/dlq", "other", "other/dlq");
            assertThat(store.taskQueue("jobs/dlq").counts().depth()).isZero();
            assertThat(store.taskQueue("other").counts().ready()).isEqualTo(1);
        }
    }

    @Test
    void aDeletedQueueStaysDeletedAfterReopen() {
        try (Mikyu store = Mikyu.open(data)) {
            store.createTaskQueue("jobs", fast()).enqueue(Task.of("x"));
            assertThat(store.deleteTaskQueue("jobs")).isTrue();
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.list(QueueKind.TASK)).isEmpty();
            assertThatThrownBy(() -> store.taskQueue("jobs")).isInstanceOf(QueueNotFoundException.class);
        }
    }

    private static java.util.List<String> leftovers(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return java.util.List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.map(p -> dir.relativize(p).toString()).toList();
        }
    }

    @Test
    void aLogQueueAndATaskQueueMayShareAName() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue log = store.createLog("events");
            TaskQueue tasks = store.createTaskQueue("events", fast());
            log.append(Entry.of("a log record"));
            tasks.enqueue(Task.of("a task"));
            tasks.enqueue(Task.of("another task"));

            assertThat(store.list(QueueKind.LOG)).containsExactly("events");
            assertThat(store.list(QueueKind.TASK)).containsExactly("events", "events/dlq");
            assertThat(log.endOffset()).isEqualTo(1);
            assertThat(tasks.counts().ready()).isEqualTo(2);
            assertThat(Files.isDirectory(data.resolve("log").resolve("events"))).isTrue();
            assertThat(Files.isDirectory(data.resolve("task").resolve("events"))).isTrue();

            assertThat(store.deleteLog("events")).isTrue();
            assertThat(store.taskQueue("events").counts().ready()).as("deleting the log leaves the task queue")
                    .isEqualTo(2);
            store.createLog("events").append(Entry.of("again"));
            assertThat(store.deleteTaskQueue("events")).isTrue();
            assertThat(store.log("events").endOffset()).as("deleting the task queue leaves the log").isEqualTo(1);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.list(QueueKind.LOG)).containsExactly("events");
            assertThat(store.list(QueueKind.TASK)).isEmpty();
        }
    }

    @Test
    void aTaskQueueIsNotALogQueue() {
        try (Mikyu store = Mikyu.open(data)) {
            store.createTaskQueue("jobs", fast());
            assertThatThrownBy(() -> store.log("jobs")).isInstanceOf(QueueNotFoundException.class);
            store.createLog("stream");
            assertThatThrownBy(() -> store.taskQueue("stream")).isInstanceOf(QueueNotFoundException.class);
        }
    }

    @Test
    void closingTheStoreClosesTaskQueueHandles() {
        TaskQueue q;
        try (Mikyu store = Mikyu.open(data)) {
            q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("x"));
        }
        assertThatThrownBy(() -> q.enqueue(Task.of("after close"))).isInstanceOf(MikyuException.class);
    }

    @Test
    void listingTaskQueuesIsSortedAndIncludesDeadLetterQueues() {
        try (Mikyu store = Mikyu.open(data)) {
            store.createTaskQueue("zeta", fast());
            store.createTaskQueue("alpha", fast());
            store.createTaskQueue("mid", fast());
            assertThat(store.list(QueueKind.TASK))
                    .containsExactly("alpha", "alpha/dlq", "mid", "mid/dlq", "zeta", "zeta/dlq");
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.list(QueueKind.TASK))
                    .containsExactly("alpha", "alpha/dlq", "mid", "mid/dlq", "zeta", "zeta/dlq");
        }
    }
}
