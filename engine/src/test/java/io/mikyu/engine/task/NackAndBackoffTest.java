package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
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

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A nack gives the task back after an explicit delay, or after the queue's exponential, capped backoff. Delays
 * run on a clock the tests move, so each is checked to the millisecond: not a millisecond early, and then at once.
 */
@Timeout(30)
class NackAndBackoffTest {

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    private static TaskQueueConfig config(long initialMillis, double multiplier, long maxMillis) {
        return TaskQueueConfig.defaults()
                .withBackoff(Duration.ofMillis(initialMillis), multiplier, Duration.ofMillis(maxMillis))
                .withDefaultLease(LONG_LEASE).withMaxAttempts(20);
    }

    /**
     * Nacks {@code t} with {@code delay} (null: the queue's backoff) and checks the task comes back exactly
     * {@code expectedMillis} later, as the next attempt of the same task; returns it.
     */
    private LeasedTask nackAndCheckRedelivery(TaskQueue q, LeasedTask t, Duration delay, long expectedMillis)
            throws InterruptedException {
        q.nack(t.token(), delay, "failed attempt " + t.attempt());
        clock.advance(Duration.ofMillis(expectedMillis - 1));
        assertThat(takeNow(q, 1)).as("not redelivered a millisecond before %d ms (attempt %d)", expectedMillis,
                t.attempt()).isEmpty();
        clock.advance(Duration.ofMillis(1));
        List<LeasedTask> redelivered = takeNow(q, 1);
        assertThat(redelivered).as("redelivered %d ms after the nack of attempt %d", expectedMillis, t.attempt())
                .hasSize(1);
        LeasedTask again = redelivered.get(0);
        assertThat(again.id()).isEqualTo(t.id());
        assertThat(again.attempt()).isEqualTo(t.attempt() + 1);
        assertThat(again.payloadAsString()).isEqualTo(t.payloadAsString());
        assertThat(again.headers()).isEqualTo(t.headers());
        assertThat(again.priority()).isEqualTo(t.priority());
        return again;
    }

    @Test
    void aNackWithZeroDelayMakesTheTaskRedeliverableAtOnce() throws Exception {
        try (Mikyu store = open()) {
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
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(50, 2.0, 100));
            q.enqueue(Task.of("later"));
            LeasedTask t = takeNow(q, 1).get(0);
            nackAndCheckRedelivery(q, t, Duration.ofMillis(400), 400);
        }
    }

    @Test
    void aNackWithoutDelayWaitsTheExponentialBackoff() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(100, 2.0, 10_000));
            q.enqueue(Task.of("flaky"));
            LeasedTask t = takeNow(q, 1).get(0);
            for (int attempt = 1; attempt <= 3; attempt++) {
                long expected = 100L << (attempt - 1); // 100, 200, 400
                assertThat(q.config().backoff(attempt).toMillis()).isEqualTo(expected);
                t = nackAndCheckRedelivery(q, t, null, expected);
                assertThat(t.attempt()).isEqualTo(attempt + 1);
            }
            q.ack(t.token());
        }
    }

    @Test
    void theBackoffIsCapped() throws Exception {
        try (Mikyu store = open()) {
            // uncapped: 100, 1000, 10000 ms; capped at 200
            TaskQueue q = store.createTaskQueue("jobs", config(100, 10.0, 200));
            q.enqueue(Task.of("capped"));
            LeasedTask t = takeNow(q, 1).get(0);
            t = nackAndCheckRedelivery(q, t, null, 100);
            t = nackAndCheckRedelivery(q, t, null, 200);
            t = nackAndCheckRedelivery(q, t, null, 200);
            assertThat(t.attempt()).isEqualTo(4);
        }
    }

    @Test
    void aNackedTaskWaitingItsDelayCountsAsScheduledThenReady() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config(50, 2.0, 100));
            q.enqueue(Task.of("x"));
            q.enqueue(Task.of("y"));
            LeasedTask t = takeNow(q, 1).get(0);
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 0, 1));
            q.nack(t.token(), Duration.ofMillis(300), "later");
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 1, 0));
            clock.advance(Duration.ofMillis(299));
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 1, 0));
            clock.advance(Duration.ofMillis(1));
            assertThat(q.counts()).isEqualTo(new TaskCounts(2, 0, 0));
        }
    }

    @Test
    void aRedeliveredTaskKeepsItsPlaceByPriorityAndId() throws Exception {
        try (Mikyu store = open()) {
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
