package io.mikyu.engine.task;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.awaitCounts;
import static io.mikyu.engine.task.TaskTesting.fast;
import static io.mikyu.engine.task.TaskTesting.millisSince;
import static io.mikyu.engine.task.TaskTesting.payloads;
import static io.mikyu.engine.task.TaskTesting.poll;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;

/** Order of delivery: priority, FIFO within a priority; delayed tasks wait; expired ones are never delivered. */
@Timeout(30)
class PriorityDelayAndExpiryTest {

    @TempDir
    Path data;

    @Test
    void higherPrioritiesComeFirstAndFifoWithinAPriority() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("low-1").withPriority(0));
            q.enqueue(Task.of("high-1").withPriority(9));
            q.enqueue(Task.of("mid-1").withPriority(4));
            q.enqueue(Task.of("high-2").withPriority(9));
            q.enqueueBatch(List.of(Task.of("mid-2").withPriority(4), Task.of("low-2").withPriority(0),
                    Task.of("p7").withPriority(7)));
            q.enqueue(Task.of("high-3").withPriority(9));

            List<String> expected = List.of("high-1", "high-2", "high-3", "p7", "mid-1", "mid-2", "low-1", "low-2");
            assertThat(payloads(q.browse(100, null))).as("browse shows the delivery order").isEqualTo(expected);
            List<String> delivered = new ArrayList<>();
            LeasedTask t;
            while ((t = q.dequeue(Duration.ZERO)) != null) {
                delivered.add(t.payloadAsString());
            }
            assertThat(delivered).isEqualTo(expected);
        }
    }

    @Test
    void aTaskEnqueuedLaterWithAHigherPriorityOvertakesWaitingOnes() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 100; i++) {
                q.enqueue(Task.of("bulk-" + i).withPriority(1));
            }
            assertThat(takeNow(q, 10)).hasSize(10);
            q.enqueue(Task.of("vip").withPriority(8));
            assertThat(payloads(takeNow(q, 2))).containsExactly("vip", "bulk-10");
        }
    }

    @Test
    void everyPriorityFromZeroToNineIsHonoured() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int p = 0; p <= 9; p++) {
                q.enqueue(Task.of("p" + p).withPriority(p));
            }
            assertThat(takeNow(q, 10)).extracting(LeasedTask::priority).containsExactly(9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        }
    }

    @Test
    void aDelayedTaskIsInvisibleUntilDueThenDelivered() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            long start = System.nanoTime();
            long id = q.enqueue(Task.of("later").withDelay(Duration.ofMillis(400)));
            q.enqueue(Task.of("now"));
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 1, 0));
            assertThat(payloads(q.browse(10, null))).as("browse shows ready tasks only").containsExactly("now");
            assertThat(payloads(takeNow(q, 10))).containsExactly("now");
            assertThat(takeNow(q, 10)).isEmpty();

            LeasedTask later = poll(q, Duration.ofSeconds(5));
            long elapsed = millisSince(start);
            assertThat(later).isNotNull();
            assertThat(later.id()).isEqualTo(id);
            assertThat(later.attempt()).isEqualTo(1);
            assertThat(elapsed).isBetween(320L, 3 * 400L + 200);
        }
    }

    @Test
    void deliverAtHoldsTheTaskUntilThatInstant() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            Instant at = Instant.now().plusMillis(400);
            q.enqueue(Task.of("at").deliverAt(at));
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 1, 0));
            LeasedTask t = poll(q, Duration.ofSeconds(5));
            assertThat(t).isNotNull();
            assertThat(System.currentTimeMillis()).as("not before the instant (with clock slack)")
                    .isGreaterThanOrEqualTo(at.toEpochMilli() - 20);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));
        }
    }

    @Test
    void aDeliverAtInThePastIsReadyAtOnce() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("past").deliverAt(Instant.now().minusSeconds(60)));
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 0, 0));
            assertThat(payloads(takeNow(q, 1))).containsExactly("past");
        }
    }

    @Test
    void dueDelayedTasksAreOrderedByPriorityAmongReadyOnes() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("delayed-high").withPriority(9).withDelay(Duration.ofMillis(200)));
            q.enqueue(Task.of("low").withPriority(1));
            awaitCounts(q, c -> c.ready() == 2, Duration.ofSeconds(3));
            Thread.sleep(50);
            assertThat(payloads(q.dequeue(2, LONG_LEASE, Duration.ofSeconds(1), null)))
                    .containsExactly("delayed-high", "low");
        }
    }

    @Test
    void scheduledCountsBecomeReadyWhenDue() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 5; i++) {
                q.enqueue(Task.of("d" + i).withDelay(Duration.ofMillis(200)));
            }
            q.enqueue(Task.of("far").withDelay(Duration.ofHours(1)));
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 6, 0));
            assertThat(awaitCounts(q, c -> c.ready() == 5, Duration.ofSeconds(3)))
                    .isEqualTo(new TaskCounts(5, 1, 0));
            assertThat(payloads(takeNow(q, 10))).containsExactly("d0", "d1", "d2", "d3", "d4");
        }
    }

    @Test
    void anExpiredTaskIsNeverDelivered() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("short-lived").withTimeToLive(Duration.ofMillis(100)).withPriority(9));
            q.enqueue(Task.of("keeper").withTimeToLive(Duration.ofMinutes(10)));
            q.enqueue(Task.of("forever"));
            Thread.sleep(250);
            List<LeasedTask> got = takeNow(q, 10);
            assertThat(payloads(got)).containsExactly("keeper", "forever");
            assertThat(got.get(0).expiresAt()).isGreaterThan(System.currentTimeMillis());
            assertThat(got.get(1).expiresAt()).isZero();
            assertThat(q.counts()).as("the expired task is dropped").isEqualTo(new TaskCounts(0, 0, 2));
            assertThat(q.browse(10, null)).isEmpty();
            assertThat(q.deadLetters().counts().depth()).as("expired tasks are dropped, not dead-lettered")
                    .isZero();
        }
    }

    @Test
    void anAlreadyExpiredTaskIsNeverDelivered() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("dead on arrival").expiresAt(Instant.now().minusSeconds(1)));
            assertThat(takeNow(q, 10)).isEmpty();
            assertThat(q.browse(10, null)).isEmpty();
        }
    }

    @Test
    void aTaskThatExpiresWhileScheduledIsNeverDelivered() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            Instant now = Instant.now();
            q.enqueue(Task.of("too late").deliverAt(now.plusMillis(300)).expiresAt(now.plusMillis(100)));
            q.enqueue(Task.of("in time").deliverAt(now.plusMillis(100)).expiresAt(now.plusSeconds(60)));
            List<LeasedTask> got = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofMillis(900).toNanos();
            while (System.nanoTime() < deadline) {
                got.addAll(q.dequeue(10, LONG_LEASE, Duration.ofMillis(50), null));
            }
            assertThat(payloads(got)).containsExactly("in time");
            assertThat(awaitCounts(q, c -> c.scheduled() == 0, Duration.ofSeconds(2)))
                    .isEqualTo(new TaskCounts(0, 0, 1));
        }
    }

    @Test
    void aTaskThatExpiresWhileWaitingForRedeliveryIsNeverDeliveredAgain() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("x").withTimeToLive(Duration.ofMillis(300)));
            LeasedTask t = takeNow(q, 1).get(0);
            q.nack(t.token(), Duration.ofMillis(500), "retry later");
            assertThat(q.dequeue(1, LONG_LEASE, Duration.ofMillis(1000), null)).isEmpty();
            assertThat(poll(q, Duration.ofMillis(300))).isNull();
            assertThat(awaitCounts(q, c -> c.depth() == 0, Duration.ofSeconds(2)).depth()).isZero();
        }
    }

    @Test
    void expiredTasksAreDroppedWithoutBlockingTheOnesBehindThem() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            List<Task> batch = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                batch.add(Task.of("gone-" + i).withTimeToLive(Duration.ofMillis(50)));
            }
            q.enqueueBatch(batch);
            q.enqueue(Task.of("survivor"));
            Thread.sleep(150);
            assertThat(payloads(q.dequeue(10, LONG_LEASE, Duration.ofMillis(500), null)))
                    .containsExactly("survivor");
        }
    }
}
