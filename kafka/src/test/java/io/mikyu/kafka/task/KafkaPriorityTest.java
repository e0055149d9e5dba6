package io.mikyu.kafka.task;

import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.kafka.priority.PriorityBands;
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
 * Priorities on Kafka: two bands, each a topic and a share group (docs/kafka.md, "Priorities"); a dequeue prefers
 * the high band (5 to 9) three times in four.
 */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaPriorityTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofMinutes(2);

    private static TaskQueueConfig config(int maxAttempts, Duration lease) {
        return TaskQueueConfig.defaults().withMaxAttempts(maxAttempts).withDefaultLease(lease);
    }

    @Test
    void highPriorityTasksEnqueuedAfterLowOnesAreDequeuedFirst() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("urgent", config(3, LEASE));
            jobs.enqueue(Task.of("low 1").withPriority(1));
            jobs.enqueue(Task.of("low 4"));
            jobs.enqueue(Task.of("low 0").withPriority(0));
            long highId = jobs.enqueue(Task.of("high 9").withPriority(9));
            jobs.enqueue(Task.of("high 5").withPriority(5));
            jobs.enqueue(Task.of("high 7").withPriority(7));
            assertThat(PriorityBands.isHighId(highId)).isTrue();

            List<String> order = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                LeasedTask t = dequeueOne(jobs);
                order.add(t.payloadAsString());
                jobs.ack(t.token());
            }
            // The first three dequeues prefer the high band; within a band, enqueue order.
            assertThat(order.subList(0, 3)).containsExactly("high 9", "high 5", "high 7");
            assertThat(order.subList(3, 6)).containsExactly("low 1", "low 4", "low 0");
            assertThat(jobs.dequeue(1, LEASE, Duration.ofSeconds(1), null)).isEmpty();
        }
    }

    @Test
    void aHandleOpenedAfterTheTasksWereSentTakesTheHighOnesFirst() throws Exception {
        String uri = KafkaTestCluster.uri();
        try (Mikyu producer = Mikyu.dial(uri); Mikyu consumer = Mikyu.dial(uri)) {
            TaskQueue jobs = producer.createTaskQueue("sent-before", config(3, LEASE));
            jobs.enqueue(Task.of("low 2").withPriority(2));
            jobs.enqueue(Task.of("low 3").withPriority(3));
            jobs.enqueue(Task.of("high 8").withPriority(8));
            jobs.enqueue(Task.of("high 6").withPriority(6));

            // A fresh handle: neither band's share consumer has joined its group when it first dequeues.
            assertThat(takeEach(consumer.taskQueue("sent-before"), 4))
                    .containsExactly("high 8", "high 6", "low 2", "low 3");
        }
    }

    @Test
    void aHandleThatDequeuedBeforeTheHighBandWasMadeTakesTheHighOnesFirst() throws Exception {
        String uri = KafkaTestCluster.uri();
        try (Mikyu producer = Mikyu.dial(uri); Mikyu consumer = Mikyu.dial(uri)) {
            TaskQueue jobs = producer.createTaskQueue("band-later", config(3, LEASE));
            TaskQueue theirs = consumer.taskQueue("band-later");
            jobs.enqueue(Task.of("low 0").withPriority(0));
            assertThat(takeEach(theirs, 1)).containsExactly("low 0");

            jobs.enqueue(Task.of("low 1").withPriority(1));
            jobs.enqueue(Task.of("low 4"));
            // The queue's first high-priority task makes its band, after the consumer's handle dequeued.
            jobs.enqueue(Task.of("high 9").withPriority(9));
            jobs.enqueue(Task.of("high 5").withPriority(5));
            assertThat(takeEach(theirs, 4)).containsExactly("high 9", "high 5", "low 1", "low 4");
            assertThat(theirs.dequeue(1, LEASE, Duration.ZERO, null)).isEmpty();
        }
    }

    @Test
    void aTaskQueueWhoseBandsTopicWouldBeTooLongForKafkaIsRefusedBeforeAnythingIsMade() throws Exception {
        String prefix = "long-names";
        try (Mikyu mikyu = Mikyu.dial(KafkaTestCluster.uri(prefix))) {
            // "<prefix>.task." and "a", then 3 characters per encoded '.': as many as leave its dead-letter queue's
            // topic ("_2fdlq" more) within Kafka's 249, so that only that queue's high band (".p5" more) is over.
            String name = "a" + ".".repeat((249 - 6 - (prefix.length() + 7)) / 3);
            assertThatThrownBy(() -> mikyu.createTaskQueue(name, config(3, LEASE)))
                    .isInstanceOf(InvalidQueueNameException.class).hasMessageContaining("too long");
            assertThat(mikyu.list(QueueKind.TASK)).isEmpty();
        }
    }

    @Test
    void theLowBandStillProgressesUnderASteadyHighBandLoad() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("steady", config(3, LEASE));
            for (int i = 0; i < 10; i++) {
                jobs.enqueue(Task.of("low " + i).withPriority(2));
            }
            for (int i = 0; i < 10; i++) {
                jobs.enqueue(Task.of("high").withPriority(8));
            }
            int lows = 0;
            int highs = 0;
            for (int i = 0; i < 24; i++) {
                LeasedTask t = dequeueOne(jobs);
                if (t.priority() >= PriorityBands.FIRST_HIGH) {
                    highs++;
                    jobs.enqueue(Task.of("high").withPriority(8)); // the high band never runs dry
                } else {
                    assertThat(t.payloadAsString()).isEqualTo("low " + lows);
                    lows++;
                }
                jobs.ack(t.token());
            }
            // 3 : 1 when both bands have work: 18 and 6, give or take a fetch slower than a band's 100 ms step.
            assertThat(lows).as("low-band tasks of 24").isBetween(5, 8);
            assertThat(highs).isEqualTo(24 - lows);
        }
    }

    @Test
    void aHighBandTaskIsAckedNackedRenewedAndDeadLetteredLikeALowOne() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("poison-high", config(2, LEASE));
            long acked = jobs.enqueue(Task.of("fine").withPriority(9));
            LeasedTask fine = dequeueOne(jobs);
            assertThat(fine.id()).isEqualTo(acked);
            assertThat(fine.priority()).isEqualTo(9);
            jobs.ack(fine.token());
            assertThatThrownBy(() -> jobs.ack(fine.token())).isInstanceOf(StaleLeaseException.class);

            long id = jobs.enqueue(Task.of("bad input").withPriority(6));
            assertThat(id).isNotEqualTo(acked);
            LeasedTask first = dequeueOne(jobs);
            assertThat(first.id()).isEqualTo(id);
            assertThat(jobs.extend(first.token(), LEASE)).isGreaterThan(System.currentTimeMillis());
            jobs.nack(first.token(), Duration.ZERO, "parse error");
            LeasedTask last = dequeueOne(jobs);
            assertThat(last.id()).isEqualTo(id);
            assertThat(last.attempt()).isEqualTo(2);
            jobs.nack(last.token(), Duration.ZERO, "parse error");

            TaskQueue dlq = jobs.deadLetters();
            LeasedTask dead = dequeueOne(dlq);
            assertThat(dead.payloadAsString()).isEqualTo("bad input");
            assertThat(dead.priority()).isEqualTo(6);
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_QUEUE)).isEqualTo("poison-high");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_ID)).isEqualTo(Long.toString(id));
            assertThat(dead.headers().getString(TaskQueue.DLQ_ATTEMPTS)).isEqualTo("2");
            dlq.ack(dead.token());
            assertThat(jobs.dequeue(5, LEASE, Duration.ofSeconds(3), null)).isEmpty();
        }
    }

    @Test
    void anExpiredHighBandLeaseRedeliversAndADelayedHighTaskComesToItsBand() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("expiring-high",
                    config(3, Duration.ofMillis(KafkaTestCluster.MIN_LOCK_MS)));
            long id = jobs.enqueue(Task.of("slow").withPriority(9));
            LeasedTask first = dequeueOne(jobs);
            // Not acked: its lock runs out and the high band's group hands it out again.
            LeasedTask second = dequeueOne(jobs);
            assertThat(second.id()).isEqualTo(id).isEqualTo(first.id());
            assertThat(second.attempt()).isEqualTo(2);
            assertThatThrownBy(() -> jobs.ack(first.token())).isInstanceOf(StaleLeaseException.class);
            jobs.ack(second.token());

            jobs.enqueue(Task.of("later").withPriority(8).withDelay(Duration.ofSeconds(1)));
            LeasedTask later = dequeueOne(jobs);
            assertThat(later.payloadAsString()).isEqualTo("later");
            assertThat(PriorityBands.isHighId(later.id())).as("forwarded to the high band").isTrue();
            jobs.ack(later.token());
        }
    }

    @Test
    void browseCountsStatsPurgeAndDeleteCoverBothBands() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            TaskQueue jobs = mikyu.createTaskQueue("mixed", config(3, LEASE));
            long first = jobs.enqueueBatch(List.of(Task.of("low a"), Task.of("high a").withPriority(9),
                    Task.of("low b").withPriority(3)), io.mikyu.engine.Durability.SYNC);
            assertThat(PriorityBands.isHighId(first)).isFalse();
            jobs.enqueue(Task.of("high b").withPriority(5));

            assertThat(jobs.browse(10, null)).extracting(LeasedTask::payloadAsString)
                    .containsExactly("high a", "high b", "low a", "low b");
            assertThat(jobs.browse(3, null)).extracting(LeasedTask::payloadAsString)
                    .containsExactly("high a", "high b", "low a");
            assertThat(jobs.counts().ready()).isEqualTo(4);
            assertThat(jobs.stats().records()).isEqualTo(4);
            assertThat(mikyu.list(QueueKind.TASK)).as("a band's topic is not a queue").containsExactly("mixed",
                    "mixed/dlq");

            LeasedTask held = dequeueOne(jobs);
            assertThat(held.payloadAsString()).isEqualTo("high a");
            assertThat(jobs.counts().inFlight()).isEqualTo(1);
            assertThat(jobs.counts().ready()).isEqualTo(3);

            assertThat(jobs.purge()).isEqualTo(4);
            assertThat(jobs.browse(10, null)).isEmpty();
            assertThat(jobs.counts().ready()).isZero();

            assertThat(mikyu.deleteTaskQueue("mixed")).isTrue();
            assertThat(mikyu.list(QueueKind.TASK)).isEmpty();
            TaskQueue again = mikyu.createTaskQueue("mixed", config(3, LEASE));
            again.enqueue(Task.of("fresh").withPriority(9));
            assertThat(again.browse(10, null)).extracting(LeasedTask::payloadAsString).containsExactly("fresh");
            assertThat(again.browse(10, null).get(0).headers().getString(SharedGroup.PRIORITY_HEADER))
                    .isEqualTo("9");
        }
    }

    /** Dequeues {@code n} tasks one at a time, acking each: their payloads in dequeue order. */
    private static List<String> takeEach(TaskQueue queue, int n) throws InterruptedException {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            LeasedTask t = dequeueOne(queue);
            order.add(t.payloadAsString());
            queue.ack(t.token());
        }
        return order;
    }

    private static LeasedTask dequeueOne(TaskQueue queue) throws InterruptedException {
        List<LeasedTask> got = new ArrayList<>(queue.dequeue(1, LEASE, WAIT, null));
        assertThat(got).as("a task within " + WAIT).hasSize(1);
        return got.get(0);
    }
}
