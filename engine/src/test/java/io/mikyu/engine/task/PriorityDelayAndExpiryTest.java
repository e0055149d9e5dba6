package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.mikyu.engine.task.TaskTesting.fast;
import static io.mikyu.engine.task.TaskTesting.payloads;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Order of delivery: priority, FIFO within a priority; delayed tasks wait; expired ones are never delivered.
 * Delivery and expiry times are on a clock the tests move.
 */
@Timeout(30)
class PriorityDelayAndExpiryTest {

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

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
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            long id = q.enqueue(Task.of("later").deliverAt(clock.wallAfter(Duration.ofMillis(400))));
            q.enqueue(Task.of("now"));
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 1, 0));
            assertThat(payloads(q.browse(10, null))).as("browse shows ready tasks only").containsExactly("now");
            assertThat(payloads(takeNow(q, 10))).containsExactly("now");
            assertThat(takeNow(q, 10)).isEmpty();

            clock.advance(Duration.ofMillis(399));
            assertThat(takeNow(q, 10)).as("not before its delay").isEmpty();
            clock.advance(Duration.ofMillis(1));
            List<LeasedTask> later = takeNow(q, 10);
            assertThat(later).hasSize(1);
            assertThat(later.get(0).id()).isEqualTo(id);
            assertThat(later.get(0).attempt()).isEqualTo(1);
        }
    }

    @Test
    void deliverAtHoldsTheTaskUntilThatInstant() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("at").deliverAt(clock.wallAfter(Duration.ofMillis(400))));
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 1, 0));
            clock.advance(Duration.ofMillis(399));
            assertThat(takeNow(q, 1)).as("not before the instant").isEmpty();
            clock.advance(Duration.ofMillis(1));
            assertThat(payloads(takeNow(q, 1))).containsExactly("at");
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));
        }
    }

    @Test
    void aDeliverAtInThePastIsReadyAtOnce() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("past").deliverAt(clock.wallAfter(Duration.ofSeconds(-60))));
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 0, 0));
            assertThat(payloads(takeNow(q, 1))).containsExactly("past");
        }
    }

    @Test
    void dueDelayedTasksAreOrderedByPriorityAmongReadyOnes() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("delayed-high").withPriority(9).deliverAt(clock.wallAfter(Duration.ofMillis(200))));
            q.enqueue(Task.of("low").withPriority(1));
            clock.advance(Duration.ofMillis(200));
            assertThat(q.counts()).isEqualTo(new TaskCounts(2, 0, 0));
            assertThat(payloads(takeNow(q, 2))).containsExactly("delayed-high", "low");
        }
    }

    @Test
    void scheduledCountsBecomeReadyWhenDue() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 5; i++) {
                q.enqueue(Task.of("d" + i).deliverAt(clock.wallAfter(Duration.ofMillis(200))));
            }
            q.enqueue(Task.of("far").deliverAt(clock.wallAfter(Duration.ofHours(1))));
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 6, 0));
            clock.advance(Duration.ofMillis(200));
            assertThat(q.counts()).isEqualTo(new TaskCounts(5, 1, 0));
            assertThat(payloads(takeNow(q, 10))).containsExactly("d0", "d1", "d2", "d3", "d4");
        }
    }

    @Test
    void anExpiredTaskIsNeverDelivered() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("short-lived").expiresAt(clock.wallAfter(Duration.ofMillis(100))).withPriority(9));
            q.enqueue(Task.of("keeper").expiresAt(clock.wallAfter(Duration.ofMinutes(10))));
            q.enqueue(Task.of("forever"));
            clock.advance(Duration.ofMillis(100));
            List<LeasedTask> got = takeNow(q, 10);
            assertThat(payloads(got)).containsExactly("keeper", "forever");
            assertThat(got.get(0).expiresAt()).isGreaterThan(clock.wallMillis());
            assertThat(got.get(1).expiresAt()).isZero();
            assertThat(q.counts()).as("the expired task is dropped").isEqualTo(new TaskCounts(0, 0, 2));
            assertThat(q.browse(10, null)).isEmpty();
            assertThat(q.deadLetters().counts().depth()).as("expired tasks are dropped, not dead-lettered")
                    .isZero();
        }
    }

    @Test
    void aTaskWithATimeToLiveIsDeliveredUntilItExpires() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("ttl").withTimeToLive(Duration.ofMinutes(10)));
            List<LeasedTask> got = takeNow(q, 1);
            assertThat(payloads(got)).containsExactly("ttl");
            assertThat(got.get(0).expiresAt()).as("ten minutes from now").isGreaterThan(System.currentTimeMillis());
        }
    }

    @Test
    void anAlreadyExpiredTaskIsNeverDelivered() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("dead on arrival").expiresAt(clock.wallAfter(Duration.ofSeconds(-1))));
            assertThat(takeNow(q, 10)).isEmpty();
            assertThat(q.browse(10, null)).isEmpty();
        }
    }

    @Test
    void aTaskThatExpiresWhileScheduledIsNeverDelivered() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("too late").deliverAt(clock.wallAfter(Duration.ofMillis(300)))
                    .expiresAt(clock.wallAfter(Duration.ofMillis(100))));
            q.enqueue(Task.of("in time").deliverAt(clock.wallAfter(Duration.ofMillis(100)))
                    .expiresAt(clock.wallAfter(Duration.ofSeconds(60))));
            clock.advance(Duration.ofMillis(100));
            assertThat(payloads(takeNow(q, 10))).containsExactly("in time");
            clock.advance(Duration.ofMillis(200));
            assertThat(takeNow(q, 10)).as("due, but expired while it waited").isEmpty();
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));
        }
    }

    @Test
    void aTaskThatExpiresWhileWaitingForRedeliveryIsNeverDeliveredAgain() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("x").expiresAt(clock.wallAfter(Duration.ofMillis(300))));
            LeasedTask t = takeNow(q, 1).get(0);
            q.nack(t.token(), Duration.ofMillis(500), "retry later");
            clock.advance(Duration.ofMillis(499));
            assertThat(takeNow(q, 1)).as("backing off").isEmpty();
            clock.advance(Duration.ofMillis(1));
            assertThat(takeNow(q, 1)).as("its backoff is over, but it expired meanwhile").isEmpty();
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void expiredTasksAreDroppedWithoutBlockingTheOnesBehindThem() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            List<Task> batch = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                batch.add(Task.of("gone-" + i).expiresAt(clock.wallAfter(Duration.ofMillis(50))));
            }
            q.enqueueBatch(batch);
            q.enqueue(Task.of("survivor"));
            clock.advance(Duration.ofMillis(50));
            assertThat(payloads(takeNow(q, 10))).containsExactly("survivor");
        }
    }
}
