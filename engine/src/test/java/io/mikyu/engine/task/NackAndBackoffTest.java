package io.mikyu.engine.task;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.awaitCounts;
import static io.mikyu.engine.task.TaskTesting.millisSince;
import static io.mikyu.engine.task.TaskTesting.poll;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;

/** A nack gives the task back after an explicit delay, or after the queue's exponential, capped backoff. */
@Timeout(30)
class NackAndBackoffTest {

    @TempDir
    Path data;

    private static TaskQueueConfig config(long initialMillis, double multiplier, long maxMillis) {
        return TaskQueueConfig.defaults()
                .withBackoff(Duration.ofMillis(initialMillis), multiplier, Duration.ofMillis(maxMillis))
                .withDefaultLease(LONG_LEASE).withMaxAttempts(20);
    }

    /** Nacks {@code t} with {@code delay} and returns how long the task took to come back, checking it did. */
    private static long nackAndTimeRedelivery(TaskQueue q, LeasedTask t, Duration delay, long expectedMillis)
            throws InterruptedException {
        long start = System.nanoTime();
        q.nack(t.token(), delay, "failed attempt " + t.attempt());
        LeasedTask again = poll(q, Duration.ofMillis(3 * expectedMillis + 2_000));
        long elapsed = millisSince(start);
        assertThat(again).as("redelivered after the nack of attempt %d", t.attempt()).isNotNull();
        assertThat(again.id()).isEqualTo(t.id());
        assertThat(again.attempt()).isEqualTo(t.attempt() + 1);
        assertThat(again.payloadAsString()).isEqualTo(t.payloadAsString());
        assertThat(again.headers()).isEqualTo(t.headers());
        assertThat(again.priority()).isEqualTo(t.priority());
        assertThat(elapsed).as("redelivery after the nack of attempt %d, expected about %d ms", t.attempt(),
                        expectedMillis)
                .isGreaterThanOrEqualTo((long) (0.8 * expectedMillis))
                .isLessThanOrEqualTo(3 * expectedMillis + 200);
        return elapsed;
    }

    @Test
    void aNackWithZeroDelayMakesTheTaskRedeliverableAtOnce() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", config(5_000, 2.0, 10_000));
            long id = q.enqueue(Task.of("retry me"));
            LeasedTask t = takeNow(q, 1).get(0);
            q.nack(t.token(), Duration.ZERO, "try again");
            LeasedTask again = takeNow(q, 1).get(0);
            assertThat(again.id()).isEqualTo(id);
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(again.token()).isNotEqualTo(t.token());
            q.ack(again.token());
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void aNackWithADelayHidesTheTaskForThatLong() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", config(50, 2.0, 100));
            q.enqueue(Task.of("later"));
            LeasedTask t = takeNow(q, 1).get(0);
            nackAndTimeRedelivery(q, t, Duration.ofMillis(400), 400);
        }
    }

    @Test
    void aNackWithoutDelayWaitsTheExponentialBackoff() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", config(100, 2.0, 10_000));
            q.enqueue(Task.of("flaky"));
            LeasedTask t = takeNow(q, 1).get(0);
            long previous = 0;
            for (int attempt = 1; attempt <= 3; attempt++) {
                long expected = 100L << (attempt - 1); // 100, 200, 400
                assertThat(q.config().backoff(attempt).toMillis()).isEqualTo(expected);
                long start = System.nanoTime();
                q.nack(t.token(), null, "failure " + attempt);
                LeasedTask again = poll(q, Duration.ofSeconds(5));
                long elapsed = millisSince(start);
                assertThat(again).isNotNull();
                assertThat(again.attempt()).isEqualTo(attempt + 1);
                assertThat(elapsed).as("backoff after attempt %d, expected %d ms", attempt, expected)
                        .isGreaterThanOrEqualTo((long) (0.8 * expected))
                        .isLessThanOrEqualTo(3 * expected + 200);
                previous = elapsed;
                t = again;
            }
            assertThat(previous).as("the third backoff is the longest").isGreaterThanOrEqualTo(320);
            q.ack(t.token());
        }
    }

    @Test
    void theBackoffIsCapped() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            // uncapped: 100, 1000, 10000 ms; capped at 200
            TaskQueue q = store.createTaskQueue("jobs", config(100, 10.0, 200));
            q.enqueue(Task.of("capped"));
            LeasedTask t = takeNow(q, 1).get(0);
            t = nackAndTimeRedeliveryNull(q, t, 100);
            t = nackAndTimeRedeliveryNull(q, t, 200);
            t = nackAndTimeRedeliveryNull(q, t, 200);
            assertThat(t.attempt()).isEqualTo(4);
        }
    }

    private static LeasedTask nackAndTimeRedeliveryNull(TaskQueue q, LeasedTask t, long expectedMillis)
            throws InterruptedException {
        long start = System.nanoTime();
        q.nack(t.token(), null, "boom");
        LeasedTask again = poll(q, Duration.ofSeconds(5));
        long elapsed = millisSince(start);
        assertThat(again).isNotNull();
        assertThat(elapsed).as("backoff after attempt %d, expected %d ms (capped)", t.attempt(), expectedMillis)
                .isGreaterThanOrEqualTo((long) (0.8 * expectedMillis))
                .isLessThanOrEqualTo(3 * expectedMillis + 200);
        return again;
    }

    @Test
    void aNackedTaskWaitingItsDelayCountsAsScheduledThenReady() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", config(50, 2.0, 100));
            q.enqueue(Task.of("x"));
            q.enqueue(Task.of("y"));
            LeasedTask t = takeNow(q, 1).get(0);
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 0, 1));
            q.nack(t.token(), Duration.ofMillis(300), "later");
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 1, 0));
            assertThat(awaitCounts(q, c -> c.ready() == 2, Duration.ofSeconds(3)))
                    .isEqualTo(new TaskCounts(2, 0, 0));
        }
    }

    @Test
    void aRedeliveredTaskKeepsItsPlaceByPriorityAndId() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", config(50, 2.0, 100));
            q.enqueue(Task.of("first"));
            q.enqueue(Task.of("second"));
            q.enqueue(Task.of("urgent").withPriority(9));
            LeasedTask urgent = takeNow(q, 1).get(0);
            assertThat(urgent.payloadAsString()).isEqualTo("urgent");
            LeasedTask first = takeNow(q, 1).get(0);
            assertThat(first.payloadAsString()).isEqualTo("first");
            q.nack(first.token(), Duration.ZERO, "retry");
            q.nack(urgent.token(), Duration.ZERO, "retry");
            List<String> order = TaskTesting.payloads(takeNow(q, 3));
            assertThat(order).as("a redelivered task is ordered by its priority like any other")
                    .hasSize(3).startsWith("urgent").contains("first", "second");
        }
    }
}
