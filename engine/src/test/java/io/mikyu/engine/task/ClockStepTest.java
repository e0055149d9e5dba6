package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
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
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The host's clock is stepped an hour either way while consumers hold leased tasks: leases, backoffs and delays
 * are timed by the steady clock, so nothing comes back early and nothing is held longer than asked.
 */
@Timeout(60)
class ClockStepTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration BACKOFF = Duration.ofSeconds(10);
    private static final Duration HOUR = Duration.ofHours(1);
    private static final int TASKS = 5;

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    private static TaskQueue queue(Mikyu store) {
        return store.createTaskQueue("jobs", TaskQueueConfig.defaults().withBackoff(BACKOFF, 1.0, BACKOFF)
                .withMaxAttempts(10));
    }

    private static List<LeasedTask> leaseAll(TaskQueue q) throws InterruptedException {
        for (int i = 0; i < TASKS; i++) {
            q.enqueue(Task.of("work " + i));
        }
        List<LeasedTask> held = q.dequeue(TASKS, LEASE, Duration.ZERO, null);
        assertThat(held).hasSize(TASKS);
        return held;
    }

    private static List<LeasedTask> takeNow(TaskQueue q) throws InterruptedException {
        return q.dequeue(TASKS, LEASE, Duration.ZERO, null);
    }

    @Test
    void aWallClockStepForwardExpiresNoLease() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = queue(store);
            leaseAll(q);

            clock.stepWall(HOUR);
            assertThat(q.counts()).as("an hour on the wall clock, no time passed").isEqualTo(new TaskCounts(0, 0, TASKS));
            assertThat(takeNow(q)).as("nothing redelivered by the step").isEmpty();

            clock.advance(LEASE.minusSeconds(1));
            assertThat(q.counts().inFlight()).as("a second before the leases end").isEqualTo(TASKS);

            clock.advance(Duration.ofSeconds(1).plus(BACKOFF));
            List<LeasedTask> again = takeNow(q);
            assertThat(again).as("back after lease + backoff, by the steady clock").hasSize(TASKS);
            assertThat(again).allSatisfy(t -> assertThat(t.attempt()).isEqualTo(2));
        }
    }

    @Test
    void aWallClockStepBackHoldsNoLeaseLonger() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = queue(store);
            leaseAll(q);

            clock.stepWall(HOUR.negated());
            clock.advance(LEASE.minusSeconds(1));
            assertThat(q.counts().inFlight()).as("a second before the leases end").isEqualTo(TASKS);

            clock.advance(Duration.ofSeconds(1).plus(BACKOFF));
            assertThat(takeNow(q)).as("the leases ended on time although the wall clock went back an hour")
                    .hasSize(TASKS);
        }
    }

    @Test
    void aNackBackoffIsTimedByTheSteadyClockEitherWay() throws Exception {
        for (Duration step : List.of(HOUR, HOUR.negated())) {
            try (Mikyu store = open()) {
                TaskQueue q = store.createTaskQueue("nacked" + step.isNegative(), TaskQueueConfig.defaults()
                        .withBackoff(BACKOFF, 1.0, BACKOFF).withMaxAttempts(10));
                q.enqueue(Task.of("work"));
                LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
                q.nack(t.token(), null, "failed");

                clock.stepWall(step);
                clock.advance(BACKOFF.minusSeconds(1));
                assertThat(takeNow(q)).as("wall clock stepped %s: still backing off", step).isEmpty();

                clock.advance(Duration.ofSeconds(1));
                assertThat(takeNow(q)).as("wall clock stepped %s: ready when the backoff ends", step).hasSize(1);
            }
        }
    }

    @Test
    void aDelayIsTimedByTheSteadyClockEitherWay() throws Exception {
        for (Duration step : List.of(HOUR, HOUR.negated())) {
            try (Mikyu store = open()) {
                TaskQueue q = store.createTaskQueue("delayed" + step.isNegative(), TaskQueueConfig.defaults());
                q.enqueue(Task.of("later").deliverAt(Instant.ofEpochMilli(clock.wallMillis() + BACKOFF.toMillis())));

                clock.stepWall(step);
                clock.advance(BACKOFF.minusSeconds(1));
                assertThat(takeNow(q)).as("wall clock stepped %s: not due yet", step).isEmpty();

                clock.advance(Duration.ofSeconds(1));
                assertThat(takeNow(q)).as("wall clock stepped %s: due", step).hasSize(1);
            }
        }
    }

    @Test
    void aSharedGroupsLeasesOutlastAWallClockStepEitherWay() throws Exception {
        for (Duration step : List.of(HOUR, HOUR.negated())) {
            try (Mikyu store = open()) {
                LogQueue log = store.createLog("events" + step.isNegative());
                for (int i = 0; i < TASKS; i++) {
                    log.append(Entry.of("record " + i));
                }
                SharedGroup group = log.sharedGroup("workers", new SharedGroupConfig(100, TaskQueueConfig.defaults()
                        .withBackoff(BACKOFF, 1.0, BACKOFF).withMaxAttempts(10)));
                assertThat(group.fetch(TASKS, LEASE, Duration.ZERO)).hasSize(TASKS);

                clock.stepWall(step);
                clock.advance(LEASE.minusSeconds(1));
                assertThat(group.fetch(TASKS, LEASE, Duration.ZERO)).as("wall clock stepped %s: all still leased",
                        step).isEmpty();

                clock.advance(Duration.ofSeconds(1).plus(BACKOFF));
                assertThat(group.fetch(TASKS, LEASE, Duration.ZERO)).as("wall clock stepped %s: redelivered on time",
                        step).hasSize(TASKS);
            }
        }
    }

    @Test
    void aPersistedLeaseEndsOnTimeAfterARestart() throws Exception {
        try (Mikyu store = open()) {
            leaseAll(queue(store));
        }
        clock.advance(Duration.ofSeconds(10)); // the restart takes ten seconds
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            clock.advance(LEASE.minusSeconds(11));
            assertThat(q.counts().inFlight()).as("the lease taken before the restart still runs").isEqualTo(TASKS);
            clock.advance(Duration.ofSeconds(1).plus(BACKOFF));
            assertThat(takeNow(q)).as("and ends when it was due").hasSize(TASKS);
        }
    }
}
