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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.drainAndAck;
import static io.mikyu.engine.task.TaskTesting.fast;
import static io.mikyu.engine.task.TaskTesting.ids;
import static io.mikyu.engine.task.TaskTesting.payloads;
import static io.mikyu.engine.task.TaskTesting.poll;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;

/** Task state (tasks, leases, attempts, acks) is in the queue's log and comes back when the store is reopened. */
@Timeout(60)
class TaskRecoveryTest {

    @TempDir
    Path data;

    private static TaskQueueConfig shortLeases() {
        return TaskQueueConfig.defaults().withBackoff(Duration.ofMillis(50), 2.0, Duration.ofMillis(400))
                .withDefaultLease(Duration.ofMillis(300)).withMaxAttempts(5);
    }

    @Test
    void readyTasksSurviveAReopenWithTheirContentAndOrder() throws Exception {
        Headers headers = Headers.of("type", "mail", "to", "someone");
        List<Long> ids = new ArrayList<>();
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            ids.add(q.enqueue(Task.of("low").withPriority(1)));
            ids.add(q.enqueue(Task.of("high").withPriority(8).withHeaders(headers)));
            ids.add(q.enqueueBatch(List.of(Task.of("mid-1"), Task.of("mid-2"))));
        }
        try (Mikyu store = Mikyu.open(data)) {
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
        try (Mikyu store = Mikyu.open(data)) {
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
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            List<LeasedTask> back = drainAndAck(q, Duration.ofSeconds(1));
            assertThat(ids(back)).as("the un-acked ones come back, once").doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(leasedOnly);
            assertThat(back).allSatisfy(t -> assertThat(t.attempt()).isEqualTo(2));
            assertThat(ids(back)).doesNotContainAnyElementsOf(acked);
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
            assertThat(q.dequeue(10, LONG_LEASE, Duration.ofMillis(600), null)).isEmpty();
        }
    }

    @Test
    void aLeaseStillRunningAtReopenIsHonouredAndTheTaskReturnsWithTheNextAttemptWhenItEnds() throws Exception {
        long leasedAt;
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", shortLeases());
            q.enqueue(Task.of("interrupted work"));
            leasedAt = System.nanoTime();
            assertThat(q.dequeue(1, Duration.ofMillis(1500), Duration.ZERO, null)).hasSize(1);
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            if (TaskTesting.millisSince(leasedAt) < 1000) {
                assertThat(takeNow(q, 1)).as("the lease is durable: not handed out while it runs").isEmpty();
                assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));
            }
            LeasedTask t = poll(q, Duration.ofSeconds(5));
            assertThat(t).isNotNull();
            assertThat(TaskTesting.millisSince(leasedAt)).as("not before the lease ran out").isGreaterThan(1200);
            assertThat(t.payloadAsString()).isEqualTo("interrupted work");
            assertThat(t.attempt()).as("the first delivery was counted durably").isEqualTo(2);
        }
    }

    @Test
    void aTokenFromBeforeAReopenStillAcksWhileItsLeaseHolds() throws Exception {
        LeasedTask t;
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("x"));
            t = takeNow(q, 1).get(0);
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            q.ack(t.token());
            assertThat(q.counts().depth()).isZero();
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.taskQueue("jobs").counts().depth()).isZero();
        }
    }

    @Test
    void attemptsAreCountedDurablyAcrossSeveralReopens() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", shortLeases().withMaxAttempts(10));
            q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0);
            q.nack(t.token(), Duration.ZERO, "first failure");
            LeasedTask second = q.dequeue(1, Duration.ofMillis(200), Duration.ZERO, null).get(0);
            assertThat(second.attempt()).isEqualTo(2);
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            LeasedTask third = poll(q, Duration.ofMillis(200), null, Duration.ofSeconds(5));
            assertThat(third).isNotNull();
            assertThat(third.attempt()).isEqualTo(3);
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            LeasedTask fourth = poll(q, Duration.ofSeconds(5));
            assertThat(fourth).isNotNull();
            assertThat(fourth.attempt()).isEqualTo(4);
            q.ack(fourth.token());
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.taskQueue("jobs").counts().depth()).isZero();
        }
    }

    @Test
    void idsAreNeverReusedAfterAReopenEvenWhenEverythingWasAcked() throws Exception {
        long last;
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("a"));
            last = q.enqueue(Task.of("b"));
            drainAndAck(q, Duration.ofMillis(50));
            assertThat(q.counts().depth()).isZero();
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            long next = q.enqueue(Task.of("c"));
            assertThat(next).isGreaterThan(last);
            assertThat(q.enqueueBatch(List.of(Task.of("d"), Task.of("e")))).isGreaterThan(next);
        }
    }

    @Test
    void scheduledAndNackedTasksKeepTheirDueTimeAcrossAReopen() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("delayed").withDelay(Duration.ofHours(1)));
            q.enqueue(Task.of("nacked"));
            q.enqueue(Task.of("soon").withDelay(Duration.ofMillis(300)));
            LeasedTask t = takeNow(q, 1).get(0);
            assertThat(t.payloadAsString()).isEqualTo("nacked");
            q.nack(t.token(), Duration.ofHours(1), "much later");
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts().scheduled() + q.counts().ready()).isEqualTo(3);
            LeasedTask soon = poll(q, Duration.ofSeconds(3));
            assertThat(soon).isNotNull();
            assertThat(soon.payloadAsString()).isEqualTo("soon");
            assertThat(q.dequeue(10, LONG_LEASE, Duration.ofMillis(300), null)).isEmpty();
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 2, 1));
        }
    }

    @Test
    void asyncEnqueuesAndAcksAreAllThereAfterACleanClose() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withDurability(Durability.ASYNC));
            for (int i = 0; i < 500; i++) {
                q.enqueue(Task.of("t" + i));
            }
            for (LeasedTask t : takeNow(q, 200)) {
                q.ack(t.token());
            }
        }
        try (Mikyu store = Mikyu.open(data)) {
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
        try (Mikyu store = Mikyu.open(data)) {
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
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts()).isEqualTo(new TaskCounts(150, 0, 0));
            assertThat(new HashSet<>(payloads(takeNow(q, 10_000)))).isEqualTo(open);
        }
    }

    @Test
    void segmentsOfFinishedTasksAreCleanedAwayAndTheQueueReopensIntact() throws Exception {
        EngineConfig engine = EngineConfig.builder().housekeepingInterval(Duration.ofMillis(100)).build();
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
            TaskTesting.awaitTrue(() -> q.stats().startOffset() > firstId, Duration.ofSeconds(5),
                    "housekeeping drops the segments of finished tasks");
            assertThat(q.stats().startOffset()).isLessThanOrEqualTo(keptId);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 1, 0));
        }
        try (Mikyu store = Mikyu.open(data, engine)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts().depth()).isEqualTo(1);
            LeasedTask kept = poll(q, Duration.ofSeconds(5));
            assertThat(kept).isNotNull();
            assertThat(kept.id()).isEqualTo(keptId);
            assertThat(kept.payloadAsString()).startsWith("task-1500-");
            assertThat(kept.attempt()).isEqualTo(2);
            q.ack(kept.token());
            TaskTesting.awaitTrue(() -> q.stats().segments() <= 2, Duration.ofSeconds(5),
                    "only the newest segments are left once every task is finished");
        }
        try (Mikyu store = Mikyu.open(data, engine)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts().depth()).isZero();
            assertThat(q.enqueue(Task.of("next"))).as("ids are not reused").isGreaterThan(lastId);
            assertThat(takeNow(q, 10)).extracting(LeasedTask::payloadAsString).containsExactly("next");
        }
    }
}
