package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StaleLeaseException;
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
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Leases run out and bring the task back; a late holder's token is refused once the task went to someone else.
 * Time is a clock the tests move: a lease ends when the clock says so, not when the machine gets round to it.
 */
@Timeout(30)
class LeaseAndFencingTest {

    private static final Duration LEASE = Duration.ofMillis(300);
    private static final Duration BACKOFF = Duration.ofMillis(100);

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    private static TaskQueueConfig config() {
        return TaskQueueConfig.defaults().withBackoff(BACKOFF, 2.0, Duration.ofMillis(400)).withDefaultLease(LEASE)
                .withMaxAttempts(10);
    }

    /** Hands the task out, lets its lease run out, and takes it again: returns {first, second}. */
    private LeasedTask[] leaseExpireAndRedeliver(TaskQueue q) throws InterruptedException {
        LeasedTask first = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
        clock.advance(LEASE.plus(BACKOFF));
        List<LeasedTask> again = takeNow(q, 1);
        assertThat(again).as("the task comes back after its lease ran out").hasSize(1);
        LeasedTask second = again.get(0);
        assertThat(second.id()).isEqualTo(first.id());
        return new LeasedTask[] {first, second};
    }

    @Test
    void anExpiredLeaseReturnsTheTaskAfterLeasePlusBackoffWithTheNextAttempt() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            long id = q.enqueue(Task.of("work"));
            LeasedTask first = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            assertThat(first.attempt()).isEqualTo(1);

            assertThat(takeNow(q, 1)).as("still leased").isEmpty();
            clock.advance(LEASE.plus(BACKOFF).minusMillis(1));
            assertThat(takeNow(q, 1)).as("not before lease %s + backoff %s", LEASE, BACKOFF).isEmpty();
            assertThat(q.counts()).as("the lease ended, the backoff runs").isEqualTo(new TaskCounts(0, 1, 0));
            clock.advance(Duration.ofMillis(1));
            List<LeasedTask> redelivered = takeNow(q, 1);
            assertThat(redelivered).as("redelivered once lease + backoff are over").hasSize(1);
            LeasedTask again = redelivered.get(0);
            assertThat(again.id()).isEqualTo(id);
            assertThat(again.payloadAsString()).isEqualTo("work");
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(again.token()).isNotEqualTo(first.token());
        }
    }

    @Test
    void aLeaseExtendedBeforeItRunsOutKeepsTheTaskPastTheOriginalLease() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            q.enqueue(Task.of("slow"));
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            clock.advance(Duration.ofMillis(150));
            long newExpiry = q.extend(t.token(), Duration.ofSeconds(2));
            assertThat(newExpiry).as("two seconds from now").isEqualTo(clock.steadyMillis() + 2_000);
            assertThat(newExpiry).isGreaterThan(t.leaseExpiresAt());

            clock.advance(Duration.ofMillis(700)); // well past the original lease + backoff
            assertThat(takeNow(q, 1)).as("the lease was extended").isEmpty();
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));
            q.ack(t.token());
            assertThat(q.counts().depth()).isZero();
            clock.advance(Duration.ofSeconds(2)); // past the extended lease too: nothing comes back
            assertThat(takeNow(q, 1)).isEmpty();
        }
    }

    /**
     * A holder that renews late (its broker was stopped past the lease, then answers the renewal before its timer
     * has looked at the leases) must not bring the ended lease back: the task would stay with a holder whose
     * delivery already counts as failed, and never come again.
     */
    @Test
    void anExtendAfterTheLeaseRanOutIsRefusedEvenBeforeTheTaskIsHandedOutAgain() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            long id = q.enqueue(Task.of("held through a stop"));
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            clock.advance(LEASE.plusMillis(1));

            assertThatThrownBy(() -> q.extend(t.token(), Duration.ofSeconds(30)))
                    .isInstanceOf(StaleLeaseException.class).hasMessageContaining(String.valueOf(id));
            assertThat(q.extend(List.of(t.token()), Duration.ofSeconds(30))).containsExactly(-1L);
            clock.advance(BACKOFF);
            List<LeasedTask> again = takeNow(q, 1);
            assertThat(again).as("the task comes back after lease + backoff").hasSize(1);
            assertThat(again.get(0).attempt()).isEqualTo(2);
        }
    }

    @Test
    void extendCanBeRepeatedAndTheTokenStaysTheSame() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            q.enqueue(Task.of("long job"));
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            for (int i = 0; i < 5; i++) {
                clock.advance(Duration.ofMillis(150));
                q.extend(t.token(), LEASE);
            }
            // 750 ms after a 300 ms lease: still ours
            assertThat(takeNow(q, 1)).isEmpty();
            q.ack(t.token());
        }
    }

    @Test
    void aLateHoldersAckNackAndExtendAreRefusedOnceTheTaskWasHandedOutAgain() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            long id = q.enqueue(Task.of("contended"));
            LeasedTask[] both = leaseExpireAndRedeliver(q);
            LeaseToken stale = both[0].token();
            LeaseToken current = both[1].token();
            assertThat(current.lease()).isNotEqualTo(stale.lease());

            assertThatThrownBy(() -> q.ack(stale)).isInstanceOf(StaleLeaseException.class)
                    .hasMessageContaining(String.valueOf(id));
            assertThatThrownBy(() -> q.nack(stale, Duration.ZERO, "late"))
                    .isInstanceOf(StaleLeaseException.class).hasMessageContaining(String.valueOf(id));
            assertThatThrownBy(() -> q.extend(stale, Duration.ofSeconds(5)))
                    .isInstanceOf(StaleLeaseException.class).hasMessageContaining(String.valueOf(id));
            assertThatThrownBy(() -> q.ack(List.of(stale))).isInstanceOf(StaleLeaseException.class);

            // nothing changed for the current holder
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));
            assertThat(q.extend(current, Duration.ofSeconds(30))).isEqualTo(clock.steadyMillis() + 30_000);
            q.ack(current);
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void ackingTwiceIsRefused() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            q.enqueue(Task.of("once"));
            LeasedTask t = takeNow(q, 1).get(0);
            q.ack(t.token());
            assertThatThrownBy(() -> q.ack(t.token())).isInstanceOf(StaleLeaseException.class)
                    .hasMessageContaining(String.valueOf(t.id()));
            assertThatThrownBy(() -> q.nack(t.token(), null, "after ack")).isInstanceOf(StaleLeaseException.class);
            assertThatThrownBy(() -> q.extend(t.token(), LEASE)).isInstanceOf(StaleLeaseException.class);
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void aNackedTasksOldTokenIsRefused() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0);
            q.nack(t.token(), Duration.ofSeconds(10), "later");
            assertThatThrownBy(() -> q.ack(t.token())).isInstanceOf(StaleLeaseException.class);
            assertThatThrownBy(() -> q.nack(t.token(), Duration.ZERO, "again")).isInstanceOf(
                    StaleLeaseException.class);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 1, 0));
        }
    }

    @Test
    void extendingAGivenBackTaskNeverLeavesItBothScheduledAndLeased() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0);
            q.nack(t.token(), Duration.ofMillis(200), "later");
            try {
                q.extend(t.token(), Duration.ofSeconds(30));
            } catch (StaleLeaseException expected) {
                // the right answer; the checks below hold either way
            }
            assertThat(q.counts().depth()).as("one task, counted once: %s", q.counts()).isEqualTo(1);
            clock.advance(Duration.ofMillis(200));
            List<LeasedTask> again = takeNow(q, 1);
            assertThat(again).hasSize(1);
            q.ack(again.get(0).token());
            clock.advance(Duration.ofSeconds(31)); // past a lease the extend might have granted, and its backoff
            assertThat(takeNow(q, 1)).as("delivered once").isEmpty();
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void twoConcurrentAcksOfOneTokenSucceedOnce() throws Exception {
        int tasks = 200;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config().withDefaultLease(LONG_LEASE));
            for (int i = 0; i < tasks; i++) {
                q.enqueue(Task.of("t" + i));
            }
            int doubleSuccesses = 0;
            for (int i = 0; i < tasks; i++) {
                LeaseToken token = takeNow(q, 1).get(0).token();
                CyclicBarrier start = new CyclicBarrier(2);
                Callable<Boolean> ack = () -> {
                    start.await();
                    try {
                        q.ack(token);
                        return true;
                    } catch (StaleLeaseException e) {
                        return false;
                    }
                };
                Future<Boolean> a = pool.submit(ack);
                Future<Boolean> b = pool.submit(ack);
                boolean first = a.get(10, TimeUnit.SECONDS);
                boolean second = b.get(10, TimeUnit.SECONDS);
                assertThat(first || second).as("one of the acks of task %d succeeds", token.taskId()).isTrue();
                if (first && second) {
                    doubleSuccesses++;
                }
            }
            assertThat(doubleSuccesses).as("tokens both of whose concurrent acks were accepted").isZero();
            assertThat(q.counts().depth()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTokenForAnUnknownTaskIsRefused() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            long id = q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0);
            LeaseToken unknown = new LeaseToken(id + 1000, t.token().lease());
            assertThatThrownBy(() -> q.ack(unknown)).isInstanceOf(StaleLeaseException.class)
                    .hasMessageContaining(String.valueOf(id + 1000));
            assertThatThrownBy(() -> q.nack(unknown, null, null)).isInstanceOf(StaleLeaseException.class);
            assertThatThrownBy(() -> q.extend(unknown, LEASE)).isInstanceOf(StaleLeaseException.class);
            // a made-up lease number for the real task is no better
            LeaseToken forged = new LeaseToken(id, t.token().lease() + 17);
            assertThatThrownBy(() -> q.ack(forged)).isInstanceOf(StaleLeaseException.class);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));
            q.ack(t.token());
        }
    }

    @Test
    void aTokenOfAReadyTaskThatWasNeverLeasedIsRefused() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            long id = q.enqueue(Task.of("x"));
            assertThatThrownBy(() -> q.ack(new LeaseToken(id, 0))).isInstanceOf(StaleLeaseException.class);
            assertThatThrownBy(() -> q.ack(new LeaseToken(id, 1))).isInstanceOf(StaleLeaseException.class);
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 0, 0));
        }
    }

    @Test
    void aBatchAckWithOneStaleTokenAcksNothing() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config());
            q.enqueue(Task.of("a"));
            q.enqueue(Task.of("b"));
            List<LeasedTask> both = takeNow(q, 2);
            q.ack(both.get(1).token());
            assertThatThrownBy(() -> q.ack(List.of(both.get(0).token(), both.get(1).token())))
                    .isInstanceOf(StaleLeaseException.class);
            assertThat(q.counts()).as("a was not acked").isEqualTo(new TaskCounts(0, 0, 1));
            q.ack(both.get(0).token());
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void aLateAckBeforeRedeliveryEitherFinishesTheTaskOrIsRefusedNeverBoth() throws Exception {
        try (Mikyu store = open()) {
            // long backoff: the lease runs out but the task is not handed out again for a while
            TaskQueue q = store.createTaskQueue("jobs", config().withBackoff(Duration.ofSeconds(30), 2.0,
                    Duration.ofSeconds(30)));
            q.enqueue(Task.of("x"));
            LeasedTask t = q.dequeue(1, Duration.ofMillis(100), Duration.ZERO, null).get(0);
            clock.advance(Duration.ofMillis(300)); // the store's timer may or may not apply the end before the ack
            boolean accepted;
            try {
                q.ack(t.token());
                accepted = true;
            } catch (StaleLeaseException e) {
                accepted = false;
            }
            TaskCounts counts = q.counts();
            if (accepted) {
                assertThat(counts.depth()).as("the late ack was taken: the task is finished").isZero();
            } else {
                assertThat(counts).as("the late ack was refused: the task waits for redelivery")
                        .isEqualTo(new TaskCounts(0, 1, 0));
            }
        }
    }

    @Test
    void inFlightCountsFollowLeasesAndExpiry() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", config().withBackoff(Duration.ofSeconds(30), 2.0,
                    Duration.ofSeconds(30)));
            q.enqueue(Task.of("x"));
            q.dequeue(1, Duration.ofMillis(100), Duration.ZERO, null);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));
            clock.advance(Duration.ofMillis(99));
            assertThat(q.counts()).as("a millisecond before the lease ends").isEqualTo(new TaskCounts(0, 0, 1));
            clock.advance(Duration.ofMillis(1));
            assertThat(q.counts()).as("the expired lease's task waits out its backoff")
                    .isEqualTo(new TaskCounts(0, 1, 0));
        }
    }
}
