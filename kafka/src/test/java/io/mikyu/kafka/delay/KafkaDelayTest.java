package io.mikyu.kafka.delay;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Transaction;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Delayed delivery and retry backoff through the delay tiers on the in-JVM cluster: never delivered before its
 * time, attempts counted across the forward, the delay kept across a restart of the client.
 */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaDelayTest {

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final Duration LEASE = Duration.ofSeconds(30);

    private static TaskQueueConfig config() {
        return TaskQueueConfig.defaults().withMaxAttempts(5).withDefaultLease(LEASE);
    }

    @Test
    void aDelayedTaskIsNotDeliveredBeforeItsTime() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("jobs", config());
            Task later = Task.of("later").withDelay(Duration.ofSeconds(6));
            jobs.enqueue(later);
            jobs.enqueue(Task.of("now"));
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int i = 0; i < 2; i++) {
                LeasedTask task = dequeueOne(jobs);
                long receivedAt = System.currentTimeMillis();
                seen.add(task.payloadAsString());
                if (task.payloadAsString().equals("later")) {
                    assertThat(receivedAt).as("not before its time").isGreaterThanOrEqualTo(later.deliverAt());
                }
                assertThat(task.attempt()).isEqualTo(1);
                jobs.ack(task.token());
            }
            assertThat(seen).containsExactlyInAnyOrder("now", "later");
        }
    }

    @Test
    void aNackWithADelayComesBackAfterItWithItsAttemptRaised() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("jobs", config());
            jobs.enqueue(Task.of("flaky"));
            LeasedTask first = dequeueOne(jobs);
            long nackedAt = System.currentTimeMillis();
            jobs.nack(first.token(), Duration.ofSeconds(5), "try later");
            LeasedTask second = dequeueOne(jobs);
            assertThat(System.currentTimeMillis() - nackedAt).as("back after its delay").isGreaterThanOrEqualTo(5000);
            assertThat(second.payloadAsString()).isEqualTo("flaky");
            assertThat(second.attempt()).isEqualTo(2);
            jobs.ack(second.token());
        }
    }

    @Test
    void aDelayedTaskSurvivesARestartOfTheClient() throws Exception {
        String uri = KafkaTestCluster.uri();
        Task later = Task.of("after restart").withDelay(Duration.ofSeconds(8));
        try (Mikyu mikyu = Mikyu.dial(uri)) {
            mikyu.createTaskQueue("jobs", config()).enqueue(later);
        }
        try (Mikyu mikyu = Mikyu.dial(uri)) {
            LeasedTask task = dequeueOne(mikyu.taskQueue("jobs"));
            assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(later.deliverAt());
            assertThat(task.payloadAsString()).isEqualTo("after restart");
            mikyu.taskQueue("jobs").ack(task.token());
        }
    }

    @Test
    void aDelayedEnqueueInATransactionIsWrittenWithIt() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("events");
            TaskQueue jobs = mikyu.createTaskQueue("jobs", config());
            Task reminder = Task.of("reminder").withDelay(Duration.ofSeconds(4));
            try (Transaction tx = mikyu.beginTransaction()) {
                tx.append("events", Entry.of("ordered")).enqueue("jobs", reminder);
                tx.commit();
            }
            LeasedTask task = dequeueOne(jobs);
            assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(reminder.deliverAt());
            assertThat(task.payloadAsString()).isEqualTo("reminder");
            assertThat(events.read(0, 10)).hasSize(1);
        }
    }

    private static LeasedTask dequeueOne(TaskQueue queue) throws InterruptedException {
        List<LeasedTask> got = queue.dequeue(1, LEASE, WAIT, null);
        assertThat(got).as("a task within " + WAIT).hasSize(1);
        return got.get(0);
    }
}
