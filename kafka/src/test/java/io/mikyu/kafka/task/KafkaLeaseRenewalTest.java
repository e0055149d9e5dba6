package io.mikyu.kafka.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lease renewal on Kafka ({@code RENEW}): a lease kept by renewals past several lock durations is delivered to no one
 * else and its delivery count does not move; a lease no longer renewed runs out and comes again with attempt 2.
 */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaLeaseRenewalTest {

    /** Long enough for a renewal between two fetches of the other handle (its first one joins the group). */
    private static final Duration LOCK = Duration.ofSeconds(10);
    private static final Duration WAIT = Duration.ofMinutes(2);

    /** Two store handles on one new queue: one holds leases, the other keeps fetching. */
    private record Handles(Mikyu holder, Mikyu other, TaskQueue jobs, TaskQueue theirs) implements AutoCloseable {
        static Handles on(String queue) {
            String uri = KafkaTestCluster.uri();
            Mikyu holder = Mikyu.dial(uri);
            Mikyu other = Mikyu.dial(uri);
            try {
                TaskQueue jobs = holder.createTaskQueue(queue,
                        TaskQueueConfig.defaults().withMaxAttempts(5).withDefaultLease(LOCK));
                return new Handles(holder, other, jobs, other.taskQueue(queue));
            } catch (RuntimeException e) {
                holder.close();
                other.close();
                throw e;
            }
        }

        @Override
        public void close() {
            holder.close();
            other.close();
        }
    }

    @Test
    void aRenewedLeaseIsNotDeliveredAgainAndKeepsItsDeliveryCount() throws Exception {
        try (Handles h = Handles.on("renewed")) {
            TaskQueue jobs = h.jobs();
            TaskQueue theirs = h.theirs();
            jobs.enqueue(Task.of("long job"));
            LeasedTask task = dequeueOne(jobs);
            assertThat(task.attempt()).isEqualTo(1);

            keepRenewing(jobs, List.of(task), theirs, 3);
            // Released after three lock durations: its next delivery is its second, not one per lapsed lock.
            jobs.nack(task.token(), Duration.ZERO, "once more");
            LeasedTask again = dequeueOne(theirs);
            assertThat(again.id()).isEqualTo(task.id());
            assertThat(again.attempt()).isEqualTo(2);
            theirs.ack(again.token());
            assertThat(theirs.dequeue(1, LOCK, LOCK.multipliedBy(2), null)).isEmpty();
        }
    }

    @Test
    void leasesFromOneFetchAreRenewedAndSettledEachOnItsOwn() throws Exception {
        try (Handles h = Handles.on("renewed-pair")) {
            TaskQueue jobs = h.jobs();
            TaskQueue theirs = h.theirs();
            jobs.enqueueBatch(List.of(Task.of("first"), Task.of("second")), Durability.SYNC);
            List<LeasedTask> both = new ArrayList<>();
            while (both.size() < 2) {
                both.addAll(jobs.dequeue(2 - both.size(), LOCK, WAIT, null));
            }
            keepRenewing(jobs, both, theirs, 1);
            jobs.ack(both.get(1).token());
            keepRenewing(jobs, List.of(both.get(0)), theirs, 2);
            jobs.ack(both.get(0).token());
            assertThatThrownBy(() -> jobs.extend(both.get(0).token(), LOCK)).isInstanceOf(StaleLeaseException.class);
            assertThat(theirs.dequeue(1, LOCK, LOCK.multipliedBy(2), null)).isEmpty();
        }
    }

    @Test
    void aLeaseNoLongerRenewedRunsOutAndComesAgainWithTheSecondAttempt() throws Exception {
        try (Handles h = Handles.on("renewed-then-dropped")) {
            TaskQueue jobs = h.jobs();
            TaskQueue theirs = h.theirs();
            jobs.enqueue(Task.of("abandoned"));
            LeasedTask task = dequeueOne(jobs);
            keepRenewing(jobs, List.of(task), theirs, 1);
            // No more renewals: the lock runs out and the other handle gets the task, counted as its second delivery.
            LeasedTask again = dequeueOne(theirs);
            assertThat(again.id()).isEqualTo(task.id());
            assertThat(again.attempt()).isEqualTo(2);
            assertThatThrownBy(() -> jobs.ack(task.token())).isInstanceOf(StaleLeaseException.class);
            theirs.ack(again.token());
        }
    }

    /** Renews {@code tasks} for {@code locks} lock durations while {@code others} keeps fetching: it gets nothing. */
    private static void keepRenewing(TaskQueue queue, List<LeasedTask> tasks, TaskQueue others, int locks)
            throws InterruptedException {
        long until = System.nanoTime() + locks * LOCK.toNanos();
        while (System.nanoTime() - until < 0) {
            for (LeasedTask t : tasks) {
                assertThat(queue.extend(t.token(), LOCK)).isGreaterThan(System.currentTimeMillis());
            }
            assertThat(others.dequeue(1, LOCK, Duration.ofSeconds(1), null)).as("a renewed lease's task").isEmpty();
        }
    }

    private static LeasedTask dequeueOne(TaskQueue queue) throws InterruptedException {
        List<LeasedTask> got = queue.dequeue(1, LOCK, WAIT, null);
        assertThat(got).hasSize(1);
        return got.get(0);
    }
}
