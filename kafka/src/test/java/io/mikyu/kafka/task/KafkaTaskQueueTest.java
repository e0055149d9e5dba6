package io.mikyu.kafka.task;

import io.mikyu.engine.GroupMember;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Task queues as share groups on the in-JVM cluster: leases are acquisition locks, acks ACCEPT, nacks RELEASE. */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaTaskQueueTest {

    private static final Duration LEASE = Duration.ofMillis(KafkaTestCluster.MIN_LOCK_MS);
    private static final Duration WAIT = Duration.ofMinutes(2);

    private static TaskQueueConfig config(int maxAttempts) {
        return TaskQueueConfig.defaults().withMaxAttempts(maxAttempts).withDefaultLease(Duration.ofSeconds(30));
    }

    @Test
    void anAckedTaskIsNotDeliveredAgain() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("jobs", config(3));
            long id = jobs.enqueue(Task.of("send email"));
            LeasedTask task = dequeueOne(jobs);
            assertThat(task.id()).isEqualTo(id);
            assertThat(task.attempt()).isEqualTo(1);
            assertThat(task.payloadAsString()).isEqualTo("send email");
            jobs.ack(task.token());
            assertThatThrownBy(() -> jobs.ack(task.token())).isInstanceOf(StaleLeaseException.class);
            jobs.enqueue(Task.of("next"));
            assertThat(dequeueOne(jobs).payloadAsString()).isEqualTo("next");
        }
    }

    @Test
    void aNackedTaskComesBackWithItsAttemptRaised() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("retried", config(3));
            jobs.enqueue(Task.of("flaky"));
            LeasedTask first = dequeueOne(jobs);
            jobs.nack(first.token(), Duration.ZERO, "failed");
            LeasedTask second = dequeueOne(jobs);
            assertThat(second.id()).isEqualTo(first.id());
            assertThat(second.attempt()).isEqualTo(2);
            jobs.ack(second.token());
        }
    }

    @Test
    void anExpiredLockRedeliversWithTheSecondAttempt() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("expiring",
                    TaskQueueConfig.defaults().withMaxAttempts(3).withDefaultLease(LEASE));
            jobs.enqueue(Task.of("slow"));
            LeasedTask first = dequeueOne(jobs);
            // Not acked: its lock runs out and the group hands it out again (to another member of this handle).
            LeasedTask second = dequeueOne(jobs);
            assertThat(second.id()).isEqualTo(first.id());
            assertThat(second.attempt()).isEqualTo(2);
            assertThatThrownBy(() -> jobs.ack(first.token())).isInstanceOf(StaleLeaseException.class);
            jobs.ack(second.token());
        }
    }

    @Test
    void aTaskNackedOnItsLastAttemptGoesToTheDeadLetterQueueWithItsOrigin() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("poison", config(2));
            long id = jobs.enqueue(Task.of("bad input"));
            jobs.nack(dequeueOne(jobs).token(), Duration.ZERO, "parse error");
            LeasedTask last = dequeueOne(jobs);
            assertThat(last.attempt()).isEqualTo(2);
            jobs.nack(last.token(), Duration.ZERO, "parse error");

            TaskQueue dlq = jobs.deadLetters();
            assertThat(dlq.name()).isEqualTo("poison/dlq");
            LeasedTask dead = dequeueOne(dlq);
            assertThat(dead.payloadAsString()).isEqualTo("bad input");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_QUEUE)).isEqualTo("poison");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_ID)).isEqualTo(Long.toString(id));
            assertThat(dead.headers().getString(TaskQueue.DLQ_ATTEMPTS)).isEqualTo("2");
            assertThat(dead.headers().getString(TaskQueue.DLQ_REASON)).isEqualTo("parse error");
            dlq.ack(dead.token());
            assertThat(jobs.dequeue(5, LEASE, Duration.ofSeconds(3), null)).isEmpty();
        }
    }

    @Test
    void aQueuesSettingsComeBackFromItsShareGroup() {
        String uri = KafkaTestCluster.uri();
        try (Mikyu mikyu = Mikyu.dial(uri)) {
            mikyu.createTaskQueue("configured", config(4));
        }
        try (Mikyu again = Mikyu.dial(uri)) {
            TaskQueueConfig read = again.taskQueue("configured").config();
            assertThat(read.maxAttempts()).isEqualTo(4);
            assertThat(read.defaultLease()).isEqualTo(Duration.ofSeconds(30));
            assertThat(again.list(io.mikyu.engine.QueueKind.TASK)).containsExactly("configured", "configured/dlq");
        }
    }

    @Test
    void aGroupMembersTakeIsATakeByItsOwnFilterForGroupsAreNotKeptOnKafka() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial(); GroupMember member = new GroupMember("consumer-1")) {
            TaskQueue jobs = mikyu.createTaskQueue("grouped", config(3));
            long id = jobs.enqueue(Task.of("first of g")
                    .withHeaders(Headers.builder().add(GroupMember.GROUP, "g").build()));
            List<LeasedTask> got = new ArrayList<>(jobs.dequeue(1, LEASE, WAIT, member.take(null)));
            assertThat(got).extracting(LeasedTask::id).containsExactly(id);
            assertThatThrownBy(() -> jobs.dequeue(1, LEASE, Duration.ZERO, member.take(t -> true)))
                    .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("selectors");
        }
    }

    @Test
    void leasesAckedInOneCallAreAllFinishedAndAStaleOneRefusesTheCallBeforeAnyIsAcked() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            // a short lock: a lease left unacked would be handed out again within the wait below
            Duration lock = Duration.ofSeconds(5);
            TaskQueue jobs = mikyu.createTaskQueue("batched",
                    TaskQueueConfig.defaults().withMaxAttempts(3).withDefaultLease(lock));
            for (int i = 0; i < 8; i++) {
                jobs.enqueue(Task.of("job " + i));
            }
            List<LeasedTask> leased = dequeue(jobs, 8);
            LeasedTask kept = leased.get(7);
            jobs.ack(kept.token());
            List<LeaseToken> batch = new ArrayList<>(leased.stream().map(LeasedTask::token).toList());
            assertThatThrownBy(() -> jobs.ack(batch)).isInstanceOf(StaleLeaseException.class);
            batch.remove(kept.token());
            jobs.ack(batch);
            assertThat(jobs.dequeue(8, lock, lock.multipliedBy(2), null)).as("nothing comes again").isEmpty();
        }
    }

    @Test
    void consumersSharingOneHandleFetchAtOnceAndGetEveryTaskOnce() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("shared-handle", config(3));
            int total = 200;
            for (int i = 0; i < total; i++) {
                jobs.enqueue(Task.of("job " + i));
            }
            Set<Long> seen = ConcurrentHashMap.newKeySet();
            AtomicInteger duplicates = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> consumers = new ArrayList<>();
                for (int c = 0; c < 4; c++) {
                    consumers.add(pool.submit(() -> {
                        long deadline = System.nanoTime() + WAIT.toNanos();
                        while (seen.size() < total && System.nanoTime() < deadline) {
                            List<LeasedTask> got = jobs.dequeue(5, LEASE, Duration.ofMillis(500), null);
                            for (LeasedTask t : got) {
                                if (!seen.add(t.id())) {
                                    duplicates.incrementAndGet();
                                }
                            }
                            if (!got.isEmpty()) {
                                jobs.ack(got.stream().map(LeasedTask::token).toList());
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : consumers) {
                    f.get(); // a consumer's failure (a poll of a member another thread holds records of) fails here
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(seen).hasSize(total);
            assertThat(duplicates).hasValue(0);
        }
    }

    @Test
    void xaIsRefusedWithAClearMessage() {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            assertThatThrownBy(mikyu::preparedTransactions).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("XA is not available on the Kafka backend");
        }
    }

    private static List<LeasedTask> dequeue(TaskQueue queue, int n) throws InterruptedException {
        List<LeasedTask> got = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (got.size() < n && System.nanoTime() < deadline) {
            got.addAll(queue.dequeue(n - got.size(), LEASE, Duration.ofSeconds(1), null));
        }
        assertThat(got).as(n + " tasks within " + WAIT).hasSize(n);
        return got;
    }

    private static LeasedTask dequeueOne(TaskQueue queue) throws InterruptedException {
        List<LeasedTask> got = new ArrayList<>(queue.dequeue(1, LEASE, WAIT, null));
        assertThat(got).as("a task within " + WAIT).hasSize(1);
        return got.get(0);
    }
}
