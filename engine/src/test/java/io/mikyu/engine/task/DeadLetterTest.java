package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Headers;
import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * After maxAttempts deliveries a task moves, with its headers and failure, to {@code <name>/dlq}. Leases and
 * backoffs run on a clock the tests move.
 */
@Timeout(60)
class DeadLetterTest {

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    /** The one task ready now. */
    private static LeasedTask takeOne(TaskQueue q) throws InterruptedException {
        List<LeasedTask> got = takeNow(q, 1);
        assertThat(got).as("a task ready in %s", q.name()).hasSize(1);
        return got.get(0);
    }

    private static TaskQueueConfig config(int maxAttempts) {
        return TaskQueueConfig.defaults().withBackoff(Duration.ofMillis(20), 2.0, Duration.ofMillis(80))
                .withDefaultLease(LONG_LEASE).withMaxAttempts(maxAttempts);
    }

    /** Dequeues and nacks the only task until it has had {@code attempts} deliveries; returns its id. */
    private static long failRepeatedly(TaskQueue q, int attempts) throws InterruptedException {
        long id = -1;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            LeasedTask t = takeOne(q); // a nack without delay makes it ready at once
            assertThat(t.attempt()).isEqualTo(attempt);
            id = t.id();
            q.nack(t.token(), Duration.ZERO, "boom-" + attempt);
        }
        return id;
    }

    @Test
    void aTaskNackedMaxAttemptsTimesMovesToTheDeadLetterQueueWithItsHistory() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(3));
            Headers own = Headers.of("type", "invoice", "customer", "42");
            long id = q.enqueue(Task.of("poison").withHeaders(own).withPriority(6));
            assertThat(failRepeatedly(q, 3)).isEqualTo(id);

            assertThat(q.counts()).as("gone from the queue").isEqualTo(new TaskCounts(0, 0, 0));
            assertThat(takeNow(q, 1)).isEmpty();

            TaskQueue dlq = q.deadLetters();
            assertThat(dlq).isNotNull();
            assertThat(dlq.name()).isEqualTo("jobs" + TaskQueue.DEAD_LETTER_SUFFIX).isEqualTo("jobs/dlq");
            assertThat(dlq.counts()).isEqualTo(new TaskCounts(1, 0, 0));
            LeasedTask dead = takeNow(dlq, 1).get(0);
            assertThat(dead.payloadAsString()).isEqualTo("poison");
            assertThat(dead.attempt()).as("first delivery from the dead-letter queue").isEqualTo(1);
            Headers h = dead.headers();
            assertThat(h.getString("type")).isEqualTo("invoice");
            assertThat(h.getString("customer")).isEqualTo("42");
            assertThat(h.getString(TaskQueue.DLQ_ORIGINAL_QUEUE)).isEqualTo("jobs");
            assertThat(h.getString(TaskQueue.DLQ_ORIGINAL_ID)).isEqualTo(String.valueOf(id));
            assertThat(h.getString(TaskQueue.DLQ_ATTEMPTS)).isEqualTo("3");
            assertThat(h.getString(TaskQueue.DLQ_REASON)).isEqualTo("boom-3");
            dlq.ack(dead.token());
            assertThat(dlq.counts().depth()).isZero();
        }
    }

    @Test
    void theTaskIsNotDeadLetteredBeforeItsLastAttempt() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(3));
            q.enqueue(Task.of("x"));
            failRepeatedly(q, 2);
            assertThat(q.deadLetters().counts().depth()).isZero();
            LeasedTask third = takeOne(q);
            assertThat(third.attempt()).isEqualTo(3);
            q.ack(third.token());
            assertThat(q.deadLetters().counts().depth()).isZero();
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void maxAttemptsOfOneDeadLettersOnTheFirstFailure() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(1));
            q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0);
            q.nack(t.token(), null, "no retries");
            assertThat(q.deadLetters().counts().ready()).isEqualTo(1);
            assertThat(takeNow(q.deadLetters(), 1).get(0).headers().getString(TaskQueue.DLQ_REASON))
                    .isEqualTo("no retries");
        }
    }

    @Test
    void aTaskWhoseLeasesKeepRunningOutIsDeadLetteredSayingSo() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(2));
            long id = q.enqueue(Task.of("hangs").withHeaders(Headers.of("k", "v")));
            LeasedTask first = q.dequeue(1, Duration.ofMillis(100), Duration.ZERO, null).get(0);
            clock.advance(Duration.ofMillis(100 + 20)); // the lease and the first backoff
            List<LeasedTask> again = q.dequeue(1, Duration.ofMillis(100), Duration.ZERO, null);
            assertThat(again).hasSize(1);
            LeasedTask second = again.get(0);
            assertThat(second.attempt()).isEqualTo(2);
            assertThat(first.id()).isEqualTo(id);

            // nobody touches the source queue again: the store's timer alone must move it once the lease ends
            TaskQueue dlq = store.taskQueue("jobs/dlq");
            clock.advance(Duration.ofMillis(100));
            await("dead-lettered after the second lease ran out").atMost(Duration.ofSeconds(30))
                    .until(() -> dlq.counts().ready() == 1);
            LeasedTask dead = takeOne(dlq);
            assertThat(dead.payloadAsString()).isEqualTo("hangs");
            assertThat(dead.headers().getString("k")).isEqualTo("v");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_ID)).isEqualTo(String.valueOf(id));
            assertThat(dead.headers().getString(TaskQueue.DLQ_ATTEMPTS)).isEqualTo("2");
            String reason = dead.headers().getString(TaskQueue.DLQ_REASON);
            assertThat(reason).isNotBlank();
            assertThat(reason.toLowerCase(Locale.ROOT)).as("reason %s", reason).containsAnyOf("lease", "expire");
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void theLastNackReasonWinsWhenFailuresMix() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(2));
            q.enqueue(Task.of("x"));
            q.dequeue(1, Duration.ofMillis(100), Duration.ZERO, null); // attempt 1: lease runs out
            clock.advance(Duration.ofMillis(100 + 20));
            LeasedTask second = takeOne(q);
            assertThat(second.attempt()).isEqualTo(2);
            q.nack(second.token(), null, "parse error at line 3");
            LeasedTask dead = takeOne(q.deadLetters());
            assertThat(dead.headers().getString(TaskQueue.DLQ_REASON)).isEqualTo("parse error at line 3");
        }
    }

    @Test
    void aDeadLetterQueueIsAnOrdinaryTaskQueueWithoutItsOwnDeadLetters() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(1));
            TaskQueue dlq = q.deadLetters();
            assertThat(dlq.deadLetters()).isNull();
            assertThat(store.taskQueue("jobs/dlq").name()).isEqualTo("jobs/dlq");
            assertThat(store.taskQueue("jobs/dlq").deadLetters()).isNull();
            assertThat(dlq.config().maxAttempts()).isEqualTo(TaskQueueConfig.UNLIMITED_ATTEMPTS);
            assertThat(store.list(QueueKind.TASK)).containsExactly("jobs", "jobs/dlq");
            assertThat(store.list(QueueKind.LOG)).isEmpty();

            // dead letters survive any number of failures in the DLQ
            q.enqueue(Task.of("x"));
            q.nack(takeNow(q, 1).get(0).token(), null, "fail");
            for (int i = 0; i < 15; i++) {
                LeasedTask t = takeNow(dlq, 1).get(0);
                assertThat(t.attempt()).isEqualTo(i + 1);
                dlq.nack(t.token(), Duration.ZERO, "still broken");
            }
            assertThat(dlq.counts().ready()).isEqualTo(1);
            assertThat(store.list(QueueKind.TASK)).containsExactly("jobs", "jobs/dlq");

            // and any client can enqueue to it directly (e.g. to park a task by hand)
            dlq.enqueue(Task.of("parked"));
            assertThat(dlq.counts().ready()).isEqualTo(2);
        }
    }

    @Test
    void deadLettersSurviveAReopen() throws Exception {
        long id;
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(2));
            q.enqueue(Task.of("other"));
            id = q.enqueue(Task.of("poison"));
            takeNow(q, 1); // "other" stays in flight
            failRepeatedly(q, 2);
        }
        try (Mikyu store = open()) {
            assertThat(store.list(QueueKind.TASK)).containsExactly("jobs", "jobs/dlq");
            TaskQueue dlq = store.taskQueue("jobs/dlq");
            assertThat(dlq.counts().ready()).isEqualTo(1);
            LeasedTask dead = takeNow(dlq, 1).get(0);
            assertThat(dead.payloadAsString()).isEqualTo("poison");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_ID)).isEqualTo(String.valueOf(id));
            assertThat(dead.headers().getString(TaskQueue.DLQ_REASON)).isEqualTo("boom-2");
            assertThat(store.taskQueue("jobs").deadLetters().name()).isEqualTo("jobs/dlq");
        }
    }

    @Test
    void attemptsCountTowardsMaxAttemptsAcrossAReopen() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(3));
            q.enqueue(Task.of("x"));
            failRepeatedly(q, 2);
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            LeasedTask third = takeOne(q);
            assertThat(third.attempt()).isEqualTo(3);
            q.nack(third.token(), Duration.ZERO, "third strike");
            assertThat(q.counts().depth()).isZero();
            assertThat(q.deadLetters().counts().ready()).isEqualTo(1);
        }
    }

    @Test
    void userQueuesCannotBeNamedLikeADeadLetterQueue() {
        try (Mikyu store = open()) {
            assertThatThrownBy(() -> store.createTaskQueue("x/dlq", config(3)))
                    .isInstanceOf(InvalidQueueNameException.class);
            assertThatThrownBy(() -> store.getOrCreateTaskQueue("x/dlq", config(3)))
                    .isInstanceOf(InvalidQueueNameException.class);
            assertThatThrownBy(() -> store.createTaskQueue("x/y", config(3)))
                    .isInstanceOf(InvalidQueueNameException.class);
            store.createTaskQueue("jobs", config(3));
            assertThatThrownBy(() -> store.createTaskQueue("jobs/dlq", config(3)))
                    .isInstanceOf(MikyuException.class);
            assertThatThrownBy(() -> store.createTaskQueue("jobs/dlq/dlq", config(3)))
                    .isInstanceOf(InvalidQueueNameException.class);
            assertThat(store.list(QueueKind.TASK)).containsExactly("jobs", "jobs/dlq");
        }
    }

    @Test
    void deletingAQueueDeletesItsDeadLetters() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(1));
            q.enqueue(Task.of("x"));
            q.nack(takeNow(q, 1).get(0).token(), null, "fail");
            assertThat(store.deleteTaskQueue("jobs")).isTrue();
            assertThat(store.list(QueueKind.TASK)).isEmpty();
            TaskQueue again = store.createTaskQueue("jobs", config(1));
            assertThat(again.deadLetters().counts().depth()).isZero();
            assertThat(List.of(again.counts().depth())).containsExactly(0L);
        }
    }
}
