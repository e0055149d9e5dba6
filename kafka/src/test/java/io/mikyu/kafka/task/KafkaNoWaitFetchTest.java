package io.mikyu.kafka.task;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.kafka.share.ShareLeases;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fetches that do not wait, and fetches that give up, on a share group: a drain with fetches that do not wait (what
 * the JMS TCK does between tests with {@code receiveNoWait}) empties the queue even on a handle whose share consumer
 * has not joined the group yet; and records that a fetch which gave up empty acquired in the background are handed
 * to a fetch, never left locked until their lock runs out.
 */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaNoWaitFetchTest {

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void aDrainWithFetchesThatDoNotWaitEmptiesTheQueueOnAFreshHandle() throws Exception {
        String uri = KafkaTestCluster.uri();
        try (Mikyu producer = Mikyu.dial(uri); Mikyu fresh = Mikyu.dial(uri)) {
            TaskQueue jobs = producer.createTaskQueue("drained", TaskQueueConfig.defaults().withDefaultLease(LEASE));
            for (int i = 0; i < 3; i++) {
                jobs.enqueue(Task.of("left over " + i));
            }
            TaskQueue theirs = fresh.taskQueue("drained");
            // The drain: fetch without waiting until a fetch finds nothing. Its first fetch is its share consumer's.
            List<String> drained = new ArrayList<>();
            List<LeasedTask> got;
            while (!(got = theirs.dequeue(10, LEASE, Duration.ZERO, null)).isEmpty()) {
                for (LeasedTask t : got) {
                    drained.add(new String(t.payload()));
                    assertThat(t.attempt()).isEqualTo(1);
                    theirs.ack(t.token());
                }
            }
            assertThat(drained).containsExactlyInAnyOrder("left over 0", "left over 1", "left over 2");
            // Nothing is left for a later consumer.
            assertThat(jobs.dequeue(10, LEASE, Duration.ofSeconds(2), null)).isEmpty();
        }
    }

    @Test
    void whatAFetchThatGaveUpAcquiredGoesToTheNextFetchAsAFirstDelivery() throws Exception {
        String uri = KafkaTestCluster.uri();
        Duration lock = Duration.ofSeconds(6);
        try (Mikyu gaveUp = Mikyu.dial(uri); Mikyu waiting = Mikyu.dial(uri)) {
            TaskQueue mine = gaveUp.createTaskQueue("gave-up",
                    TaskQueueConfig.defaults().withDefaultLease(lock).withMaxAttempts(5));
            TaskQueue theirs = waiting.taskQueue("gave-up");
            // A fetch that finds nothing: its share consumer goes on fetching in the background.
            assertThat(mine.dequeue(1, lock, Duration.ZERO, null)).isEmpty();
            mine.enqueue(Task.of("late"));
            // The other handle waits for it: the first handle's background fetch acquired it, and its sweep hands
            // it back to the group before its lock runs out, without counting that acquisition as a delivery.
            long start = System.nanoTime();
            List<LeasedTask> got = theirs.dequeue(1, lock, Duration.ofMinutes(2), null);
            assertThat(got).hasSize(1);
            assertThat(new String(got.get(0).payload())).isEqualTo("late");
            assertThat(got.get(0).attempt()).as("a first delivery").isEqualTo(1);
            theirs.ack(got.get(0).token());
            System.out.printf("the task reached the waiting handle after %d ms (lock %d ms)%n",
                    (System.nanoTime() - start) / 1_000_000, lock.toMillis());
            // And the first handle's next fetch does not get it again.
            assertThat(mine.dequeue(1, lock, Duration.ofSeconds(2), null)).isEmpty();
        }
    }

    @Test
    void aFetchThatGaveUpHandsItsAcquisitionToTheHandlesNextFetch() throws Exception {
        String uri = KafkaTestCluster.uri();
        try (Mikyu handle = Mikyu.dial(uri)) {
            TaskQueue jobs = handle.createTaskQueue("next-fetch", TaskQueueConfig.defaults().withDefaultLease(LEASE));
            assertThat(jobs.dequeue(1, LEASE, Duration.ZERO, null)).isEmpty();
            jobs.enqueue(Task.of("one"));
            jobs.enqueue(Task.of("two"));
            List<String> got = new ArrayList<>();
            long until = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (got.size() < 2 && System.nanoTime() - until < 0) {
                for (LeasedTask t : jobs.dequeue(2, LEASE, Duration.ofSeconds(5), null)) {
                    assertThat(t.attempt()).isEqualTo(1);
                    got.add(new String(t.payload()));
                    jobs.ack(t.token());
                }
            }
            assertThat(got).containsExactlyInAnyOrder("one", "two");
        }
    }

    @Test
    void theStraySweepRunsOnlyWhileAShareConsumerMayBeFetchingInTheBackground() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            HandleLeases.Queue queue = HandleLeases.afterOneTask(mikyu, "swept", LEASE, "one");
            KafkaTaskQueue jobs = queue.jobs();
            ShareLeases leases = queue.leases();
            // Its share consumer's last poll brought a task and it holds nothing now: no fetch runs, no sweep.
            await().atMost(Duration.ofSeconds(30)).until(() -> !leases.sweeping());

            // A fetch that finds nothing leaves its share consumer fetching: the sweep is armed.
            assertThat(jobs.dequeue(1, LEASE, Duration.ZERO, null)).isEmpty();
            assertThat(leases.sweeping()).isTrue();

            // The background fetch acquires the next task; a fetch takes it, and the sweep stops again.
            jobs.enqueue(Task.of("two"));
            LeasedTask two = jobs.dequeue(1, LEASE, Duration.ofMinutes(2), null).get(0);
            assertThat(two.payloadAsString()).isEqualTo("two");
            assertThat(two.attempt()).isEqualTo(1);
            jobs.ack(two.token());
            await().atMost(Duration.ofSeconds(30)).until(() -> !leases.sweeping());
        }
    }

    /**
     * A share consumer whose poll returned a task can go on fetching in the background (Kafka 4.4 was seen to ask
     * for the next fetch after the answer it returned) and acquire the next task into its buffer, where no poll of
     * another member sees it. The JMS TCK's {@code jmsproducerqueuetests} waited a whole lock for such a message
     * while its fetch polled the queue's other member, and its next receive got it, one message late. Each round
     * here: a task taken by one member, a fetch meanwhile that makes a second one, the first task acked, the next
     * task waited for: it comes before its lock ends, as a first delivery.
     */
    @Test
    void aTaskAcquiredByAMemberNoFetchPollsReachesTheWaitingFetchBeforeItsLockEnds() throws Exception {
        // Longer than a share consumer's join on a loaded machine (the second member's, while the first task is held).
        Duration lock = Duration.ofSeconds(30);
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("held-ahead",
                    TaskQueueConfig.defaults().withDefaultLease(lock).withMaxAttempts(100));
            for (int round = 0; round < 12; round++) {
                jobs.enqueue(Task.of("taken " + round));
                LeasedTask taken = jobs.dequeue(1, lock, Duration.ofMinutes(1), null).get(0);
                assertThat(taken.payloadAsString()).isEqualTo("taken " + round);
                // While it is held, a fetch finds nothing: it polls another member.
                assertThat(jobs.dequeue(1, lock, Duration.ZERO, null)).isEmpty();
                jobs.ack(taken.token());
                jobs.enqueue(Task.of("next " + round));
                long start = System.nanoTime();
                LeasedTask next = jobs.dequeue(1, lock, Duration.ofMinutes(1), null).get(0);
                long tookMillis = (System.nanoTime() - start) / 1_000_000;
                assertThat(next.payloadAsString()).isEqualTo("next " + round);
                assertThat(next.attempt()).as("round %d: a first delivery, after %d ms", round, tookMillis)
                        .isEqualTo(1);
                assertThat(tookMillis).as("round %d", round).isLessThan(lock.toMillis());
                jobs.ack(next.token());
            }
        }
    }
}
