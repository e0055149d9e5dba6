package io.mikyu.engine.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Headers;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.mikyu.engine.task.TaskTesting.drainAndAck;
import static io.mikyu.engine.task.TaskTesting.fast;
import static io.mikyu.engine.task.TaskTesting.ids;
import static io.mikyu.engine.task.TaskTesting.payloads;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Task state (tasks, leases, attempts, acks) is in the queue's log and comes back when the store is reopened.
 * Leases and delays run on a clock the tests move, which goes on across a reopen as time does.
 */
@Timeout(60)
class TaskRecoveryTest {

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    private static TaskQueueConfig shortLeases() {
        return TaskQueueConfig.defaults().withBackoff(Duration.ofMillis(50), 2.0, Duration.ofMillis(400))
                .withDefaultLease(Duration.ofMillis(300)).withMaxAttempts(5);
    }

    @Test
    void readyTasksSurviveAReopenWithTheirContentAndOrder() throws Exception {
        Headers headers = Headers.of("type", "mail", "to", "someone");
        List<Long> ids = new ArrayList<>();
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            ids.add(q.enqueue(Task.of("low").withPriority(1)));
            ids.add(q.enqueue(Task.of("high").withPriority(8).withHeaders(headers)));
            ids.add(q.enqueueBatch(List.of(Task.of("mid-1"), Task.of("mid-2"))));
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts()).isEqualTo(new TaskCounts(4, 0, 0));
            List<LeasedTask> got = takeNow(q, 10);
            assertThat(payloads(got)).containsExactly("high", "mid-1", "mid-2", "low");
            assertThat(got.get(0).id()).isEqualTo(ids.get(1));
            assertThat(got.get(0).headers()).isEqualTo(headers);
            assertThat(got.get(0).priority()).isEqualTo(8);
            assertThat(got.get(1).id()).isEqualTo(ids.get(2));
            assertThat(got.get(2).id()).isEqualTo(ids.get(2) + 1);
            assertThat(got).allSatisfy(t -> assertThat(t.attempt()).isEqualTo(1));
        }
    }

    @Test
    void ackedTasksNeverComeBackAfterAReopen() throws Exception {
        Set<Long> acked = new HashSet<>();
        Set<Long> leasedOnly = new HashSet<>();
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", shortLeases());
            for (int i = 0; i < 20; i++) {
                q.enqueue(Task.of("t" + i));
            }
            List<LeasedTask> got = q.dequeue(20, Duration.ofMillis(300), Duration.ZERO, null);
            for (int i = 0; i < got.size(); i++) {
                if (i % 2 == 0) {
                    q.ack(got.get(i).token());
                    acked.add(got.get(i).id());
                } else {
                    leasedOnly.add(got.get(i).id());
                }
            }
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            clock.advance(Duration.ofMillis(300 + 50)); // the leases and their backoff
            List<LeasedTask> back = drainAndAck(q, Duration.ZERO);
            assertThat(ids(back)).as("the un-acked ones come back, once").doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(leasedOnly);
            assertThat(back).allSatisfy(t -> assertThat(t.attempt()).isEqualTo(2));
            assertThat(ids(back)).doesNotContainAnyElementsOf(acked);
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
            clock.advance(Duration.ofSeconds(1));
            assertThat(takeNow(q, 10)).isEmpty();
        }
    }

    @Test
    void aLeaseStillRunningAtReopenIsHonouredAndTheTaskReturnsWithTheNextAttemptWhenItEnds() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", shortLeases());
            q.enqueue(Task.of("interrupted work"));
            assertThat(q.dequeue(1, Duration.ofMillis(1500), Duration.ZERO, null)).hasSize(1);
        }
        clock.advance(Duration.ofMillis(1000));
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(takeNow(q, 1)).as("the lease is durable: not handed out while it runs").isEmpty();
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));
            clock.advance(Duration.ofMillis(500 + 49));
            assertThat(takeNow(q, 1)).as("not before the lease ran out and its backoff").isEmpty();
            clock.advance(Duration.ofMillis(1));
            List<LeasedTask> back = takeNow(q, 1);
            assertThat(back).hasSize(1);
            LeasedTask t = back.get(0);
            assertThat(t.payloadAsString()).isEqualTo("interrupted work");
            assertThat(t.attempt()).as("the first delivery was counted durably").isEqualTo(2);
        }
    }

    @Test
    void aTokenFromBeforeAReopenStillAcksWhileItsLeaseHolds() throws Exception {
        LeasedTask t;
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("x"));
            t = takeNow(q, 1).get(0);
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            q.ack(t.token());
            assertThat(q.counts().depth()).isZero();
        }
        try (Mikyu store = open()) {
            assertThat(store.taskQueue("jobs").counts().depth()).isZero();
        }
    }

    @Test
    void attemptsAreCountedDurablyAcrossSeveralReopens() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", shortLeases().withMaxAttempts(10));
            q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0);
            q.nack(t.token(), Duration.ZERO, "first failure");
            LeasedTask second = q.dequeue(1, Duration.ofMillis(200), Duration.ZERO, null).get(0);
            assertThat(second.attempt()).isEqualTo(2);
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            clock.advance(Duration.ofSeconds(1)); // past the second lease and its backoff
            List<LeasedTask> third = q.dequeue(1, Duration.ofMillis(200), Duration.ZERO, null);
            assertThat(third).hasSize(1);
            assertThat(third.get(0).attempt()).isEqualTo(3);
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            clock.advance(Duration.ofSeconds(1)); // past the third lease and its backoff
            List<LeasedTask> fourth = takeNow(q, 1);
            assertThat(fourth).hasSize(1);
            assertThat(fourth.get(0).attempt()).isEqualTo(4);
            q.ack(fourth.get(0).token());
        }
        try (Mikyu store = open()) {
            assertThat(store.taskQueue("jobs").counts().depth()).isZero();
        }
    }

    @Test
    void idsAreNeverReusedAfterAReopenEvenWhenEverythingWasAcked() throws Exception {
        long last;
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("a"));
            last = q.enqueue(Task.of("b"));
            drainAndAck(q, Duration.ofMillis(50));
            assertThat(q.counts().depth()).isZero();
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            long next = q.enqueue(Task.of("c"));
            assertThat(next).isGreaterThan(last);
            assertThat(q.enqueueBatch(List.of(Task.of("d"), Task.of("e")))).isGreaterThan(next);
        }
    }

    @Test
    void scheduledAndNackedTasksKeepTheirDueTimeAcrossAReopen() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("delayed").deliverAt(clock.wallAfter(Duration.ofHours(1))));
            q.enqueue(Task.of("nacked"));
            q.enqueue(Task.of("soon").deliverAt(clock.wallAfter(Duration.ofMillis(300))));
            LeasedTask t = takeNow(q, 1).get(0);
            assertThat(t.payloadAsString()).isEqualTo("nacked");
            q.nack(t.token(), Duration.ofHours(1), "much later");
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 3, 0));
            clock.advance(Duration.ofMillis(299));
            assertThat(takeNow(q, 10)).as("not due yet").isEmpty();
            clock.advance(Duration.ofMillis(1));
            List<LeasedTask> soon = takeNow(q, 10);
            assertThat(payloads(soon)).containsExactly("soon");
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 2, 1));
            q.ack(soon.get(0).token());
            clock.advance(Duration.ofMinutes(59));
            assertThat(takeNow(q, 10)).as("the others are due in an hour").isEmpty();
            clock.advance(Duration.ofMinutes(1));
            assertThat(payloads(takeNow(q, 10))).containsExactlyInAnyOrder("delayed", "nacked");
        }
    }

    @Test
    void asyncEnqueuesAndAcksAreAllThereAfterACleanClose() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withDurability(Durability.ASYNC));
            for (int i = 0; i < 500; i++) {
                q.enqueue(Task.of("t" + i));
            }
            for (LeasedTask t : takeNow(q, 200)) {
                q.ack(t.token());
            }
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts()).isEqualTo(new TaskCounts(300, 0, 0));
            assertThat(takeNow(q, 1).get(0).payloadAsString()).isEqualTo("t200");
        }
    }

    @Test
    void aQueueWithManyStateChangesReopensWithTheRightState() throws Exception {
        // enough records to roll the queue's log over several small segments
        TaskQueueConfig config = fast().withSegmentBytes(64 * 1024);
        Set<String> open = new HashSet<>();
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config);
            for (int round = 0; round < 30; round++) {
                List<Task> batch = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    batch.add(Task.of("r" + round + "-" + i + "-" + "x".repeat(100)));
                }
                q.enqueueBatch(batch);
                for (LeasedTask t : takeNow(q, 45)) {
                    q.ack(t.token());
                }
            }
            for (LeasedTask t : q.browse(10_000, null)) {
                open.add(t.payloadAsString());
            }
            assertThat(open).hasSize(30 * 5);
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts()).isEqualTo(new TaskCounts(150, 0, 0));
            assertThat(new HashSet<>(payloads(takeNow(q, 10_000)))).isEqualTo(open);
        }
    }

    @Test
    void segmentsOfFinishedTasksAreCleanedAwayAndTheQueueReopensIntact() throws Exception {
        EngineConfig engine = EngineConfig.builder().housekeepingInterval(Duration.ofMillis(100)).timeSource(clock)
                .build();
        TaskQueueConfig config = fast().withSegmentBytes(16 * 1024);
        long keptId;
        long lastId;
        try (Mikyu store = Mikyu.open(data, engine)) {
            TaskQueue q = store.createTaskQueue("jobs", config);
            long first = -1;
            for (int b = 0; b < 100; b++) {
                List<Task> batch = new ArrayList<>();
                for (int i = b * 20; i < b * 20 + 20; i++) {
                    batch.add(Task.of("task-" + i + "-" + "y".repeat(100)));
                }
                long id = q.enqueueBatch(batch); // small batches: a batch never spans segments
                first = first < 0 ? id : first;
            }
            lastId = first + 1999;
            keptId = first + 1500;
            for (LeasedTask t : takeNow(q, 2000)) {
                if (t.id() == keptId) {
                    q.nack(t.token(), Duration.ofMillis(1500), "keep me");
                } else {
                    q.ack(t.token());
                }
            }
            assertThat(q.stats().segments()).isGreaterThan(5);
            long firstId = first;
            await("housekeeping drops the segments of finished tasks").atMost(Duration.ofSeconds(30))
                    .until(() -> q.stats().startOffset() > firstId);
            assertThat(q.stats().startOffset()).isLessThanOrEqualTo(keptId);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 1, 0));
        }
        try (Mikyu store = Mikyu.open(data, engine)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts().depth()).isEqualTo(1);
            clock.advance(Duration.ofMillis(1500));
            List<LeasedTask> back = takeNow(q, 1);
            assertThat(back).hasSize(1);
            LeasedTask kept = back.get(0);
            assertThat(kept.id()).isEqualTo(keptId);
            assertThat(kept.payloadAsString()).startsWith("task-1500-");
            assertThat(kept.attempt()).isEqualTo(2);
            q.ack(kept.token());
            await("only the newest segments are left once every task is finished").atMost(Duration.ofSeconds(30))
                    .until(() -> q.stats().segments() <= 2);
        }
        try (Mikyu store = Mikyu.open(data, engine)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts().depth()).isZero();
            assertThat(q.enqueue(Task.of("next"))).as("ids are not reused").isGreaterThan(lastId);
            assertThat(takeNow(q, 10)).extracting(LeasedTask::payloadAsString).containsExactly("next");
        }
    }
}
