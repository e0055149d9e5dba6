package io.mikyu.engine.task;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.EngineConfig.TransientMemoryPolicy;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.MemoryLimitException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.BackgroundCall;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.engine.spi.TransientWrites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The memory limit of transient tasks: what they take is counted (payload, headers, per-task overhead), given
 * back on every way a task leaves memory, and an enqueue over a limit blocks, fails or spills to disk by policy.
 * What is counted is read where operators read it: the store's meters.
 */
@Timeout(60)
class TransientMemoryLimitTest {

    private static final Duration LEASE = Duration.ofMinutes(1);
    /** One task of 1,000 payload bytes and no headers: 192 bytes of overhead besides. */
    private static final long ONE = 1_000 + 192;

    @TempDir
    Path data;

    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private EngineConfig.Builder config() {
        return EngineConfig.builder().meterRegistry(meters).timeSource(clock);
    }

    private static Task task(int bytes) {
        return Task.of(new byte[bytes]);
    }

    private double gauge(String name) {
        return meters.get(name).gauge().value();
    }

    private double queueGauge(String name, String queue) {
        return meters.get(name).tag("queue", queue).gauge().value();
    }

    private double counter(String name) {
        return meters.get(name).functionCounter().count();
    }

    @Test
    void payloadHeadersAndOverheadAreCountedPerQueueAndForTheStore() {
        try (Mikyu store = Mikyu.open(data, config().build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            q.enqueueTransient(List.of(task(1_000), task(1_000).withHeaders(Headers.of("kind", "abc"))));
            long withHeader = ONE + 80 + "kind".length() + "abc".length();
            assertThat(gauge("mikyu.engine.transient.bytes")).isEqualTo(ONE + withHeader);
            assertThat(gauge("mikyu.engine.transient.tasks")).isEqualTo(2);
            assertThat(queueGauge("mikyu.queue.transient.bytes", "jobs")).isEqualTo(ONE + withHeader);
            assertThat(queueGauge("mikyu.queue.transient.tasks", "jobs")).isEqualTo(2);
            q.enqueue(task(1_000));
            assertThat(gauge("mikyu.engine.transient.tasks")).as("stored tasks are not counted").isEqualTo(2);
        }
    }

    @Test
    void ackNackAndExpiryGiveTheMemoryBack() throws Exception {
        try (Mikyu store = Mikyu.open(data, config().build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            q.enqueueTransient(List.of(task(1_000), task(1_000)));
            q.enqueueTransient(List.of(new Task(new byte[1_000], Headers.EMPTY, 4, 0,
                    clock.wallAfter(Duration.ofSeconds(5)).toEpochMilli())));
            assertThat(gauge("mikyu.engine.transient.bytes")).isEqualTo(3 * ONE);

            List<LeasedTask> got = q.dequeue(2, LEASE, Duration.ZERO, null);
            q.ack(got.get(0).token());
            assertThat(gauge("mikyu.engine.transient.bytes")).as("acked").isEqualTo(2 * ONE);
            q.nack(got.get(1).token(), Duration.ZERO, "again");
            assertThat(gauge("mikyu.engine.transient.bytes")).as("a nack keeps it").isEqualTo(2 * ONE);

            clock.advance(Duration.ofSeconds(5));
            List<LeasedTask> left = q.dequeue(5, LEASE, Duration.ZERO, null);
            assertThat(left).hasSize(1);
            assertThat(gauge("mikyu.engine.transient.bytes")).as("expired").isEqualTo(ONE);
            q.ack(left.get(0).token());
            assertThat(gauge("mikyu.engine.transient.bytes")).isZero();
            assertThat(gauge("mikyu.engine.transient.tasks")).isZero();
            assertThat(queueGauge("mikyu.queue.transient.bytes", "jobs")).isZero();
        }
    }

    @Test
    void aTaskExpiredOnArrivalTakesNothing() {
        try (Mikyu store = Mikyu.open(data, config().build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            long past = clock.wallMillis() - 1_000;
            assertThat(q.enqueueTransient(List.of(new Task(new byte[1_000], Headers.EMPTY, 4, 0, past))))
                    .isEqualTo(-1);
            assertThat(gauge("mikyu.engine.transient.bytes")).isZero();
        }
    }

    @Test
    void aDeadLetterMovesItsChargeToTheDeadLetterQueue() throws Exception {
        // The dead-letter queue is charged whatever the limit: the task was counted already, and is only moving.
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimit(ONE)
                .transientMemoryPolicy(TransientMemoryPolicy.FAIL).build())) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults().withMaxAttempts(1));
            q.enqueueTransient(List.of(task(1_000)));
            q.nack(q.dequeue(1, LEASE, Duration.ZERO, null).get(0).token(), Duration.ZERO, "poison");
            assertThat(queueGauge("mikyu.queue.transient.bytes", "jobs")).isZero();
            assertThat(queueGauge("mikyu.queue.transient.bytes", "jobs/dlq")).isGreaterThan(ONE);
            long dlqBytes = (long) queueGauge("mikyu.queue.transient.bytes", "jobs/dlq");
            assertThat(gauge("mikyu.engine.transient.bytes")).isEqualTo(dlqBytes);
            assertThatThrownBy(() -> q.enqueueTransient(List.of(task(1_000))))
                    .as("dead letters in memory count against the store's limit").isInstanceOf(MemoryLimitException.class);

            LeasedTask dead = q.deadLetters().dequeue(1, LEASE, Duration.ofSeconds(5), null).get(0);
            q.deadLetters().ack(dead.token());
            assertThat(gauge("mikyu.engine.transient.bytes")).isZero();
            q.enqueueTransient(List.of(task(1_000)));
        }
    }

    @Test
    void purgeAndQueueDeletionGiveTheMemoryBack() throws Exception {
        try (Mikyu store = Mikyu.open(data, config().build())) {
            TaskQueue a = store.createTaskQueue("a");
            TaskQueue b = store.createTaskQueue("b");
            a.enqueueTransient(List.of(task(1_000), task(1_000).withDelay(Duration.ofHours(1))));
            b.enqueueTransient(List.of(task(1_000), task(1_000)));
            LeasedTask held = b.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            assertThat(gauge("mikyu.engine.transient.bytes")).isEqualTo(4 * ONE);

            assertThat(a.purge()).isEqualTo(2);
            assertThat(gauge("mikyu.engine.transient.bytes")).as("ready and scheduled purged").isEqualTo(2 * ONE);

            assertThat(store.deleteTaskQueue("b")).isTrue();
            assertThat(gauge("mikyu.engine.transient.bytes")).as("ready and leased of a deleted queue").isZero();
            assertThat(gauge("mikyu.engine.transient.tasks")).isZero();
            assertThat(meters.find("mikyu.queue.transient.bytes").tag("queue", "b").gauge()).isNull();
            assertThat(held.payload()).hasSize(1_000);
        }
    }

    @Test
    void failRefusesAtOnceWithAClearErrorAndNothingEnqueued() throws Exception {
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimit(3 * ONE)
                .transientMemoryPolicy(TransientMemoryPolicy.FAIL).build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            q.enqueueTransient(List.of(task(1_000), task(1_000)));
            assertThatThrownBy(() -> q.enqueueTransient(List.of(task(1_000), task(1_000))))
                    .isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("memory limit reached")
                    .hasMessageContaining("task queue 'jobs'")
                    .hasMessageContaining("transientMemoryLimit")
                    .hasMessageContaining("nothing was enqueued");
            assertThat(q.counts().ready()).isEqualTo(2);
            assertThat(counter("mikyu.engine.transient.refused")).isEqualTo(1);
            q.enqueueTransient(List.of(task(1_000)));
            assertThat(q.counts().ready()).isEqualTo(3);

            q.ack(q.dequeue(1, LEASE, Duration.ZERO, null).get(0).token());
            q.enqueueTransient(List.of(task(1_000)));
            assertThat(q.counts().ready()).isEqualTo(3);
        }
    }

    @Test
    void thePerQueueLimitLeavesOtherQueuesFree() {
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimitPerQueue(ONE)
                .transientMemoryPolicy(TransientMemoryPolicy.FAIL).build())) {
            TaskQueue a = store.createTaskQueue("a");
            TaskQueue b = store.createTaskQueue("b");
            a.enqueueTransient(List.of(task(1_000)));
            assertThatThrownBy(() -> a.enqueueTransient(List.of(task(1_000))))
                    .isInstanceOf(MemoryLimitException.class).hasMessageContaining("transientMemoryLimitPerQueue");
            b.enqueueTransient(List.of(task(1_000)));
            assertThat(b.counts().ready()).isEqualTo(1);
        }
    }

    @Test
    void blockWaitsUntilAConsumerFreesMemory() throws Exception {
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimit(2 * ONE)
                .transientMemoryPolicy(TransientMemoryPolicy.BLOCK)
                .transientMemoryBlockTimeout(Duration.ofMinutes(10)).build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            q.enqueueTransient(List.of(task(1_000), task(1_000)));
            try (BackgroundCall<Long> send = BackgroundCall.start("blocked-send",
                    () -> q.enqueueTransient(List.of(task(1_000))))) {
                send.awaitTimedWaiting();
                assertThat(send.isDone()).as("waits for memory").isFalse();
                assertThat(counter("mikyu.engine.transient.blocked")).isEqualTo(1);
                q.ack(q.dequeue(1, LEASE, Duration.ZERO, null).get(0).token());
                assertThat(send.get()).isPositive();
            }
            assertThat(q.counts().ready()).isEqualTo(2);
            assertThat(gauge("mikyu.engine.transient.bytes")).isEqualTo(2 * ONE);
        }
    }

    @Test
    void blockFailsAfterItsTimeoutWithAClearError() throws Exception {
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimit(ONE)
                .transientMemoryBlockTimeout(Duration.ofMillis(200)).build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            q.enqueueTransient(List.of(task(1_000)));
            assertThatThrownBy(() -> q.enqueueTransient(List.of(task(1_000))))
                    .isInstanceOf(MemoryLimitException.class)
                    .hasMessageContaining("waited 200 ms (transientMemoryBlockTimeout)");
            assertThat(q.counts().ready()).isEqualTo(1);
            assertThat(counter("mikyu.engine.transient.blocked")).isEqualTo(1);
            assertThat(counter("mikyu.engine.transient.refused")).isEqualTo(1);
        }
    }

    @Test
    void blockRefusesAtOnceWhatCouldNeverFit() {
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimit(ONE)
                .transientMemoryBlockTimeout(Duration.ofHours(1)).build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            assertThatThrownBy(() -> q.enqueueTransient(List.of(task(1_000), task(1_000))))
                    .isInstanceOf(MemoryLimitException.class).hasMessageContaining("larger than the limit");
        }
    }

    @Test
    void anEnqueueThroughADeletedQueuesHandleIsRefusedAndLeavesNothingCounted() {
        try (Mikyu store = Mikyu.open(data, config().build())) {
            TaskQueue a = store.createTaskQueue("a");
            a.enqueueTransient(List.of(task(1_000)));
            store.deleteTaskQueue("a");

            assertThatThrownBy(() -> a.enqueueTransient(List.of(task(1_000))))
                    .isInstanceOf(StoreClosedException.class).hasMessageContaining("'a'");
            assertThatThrownBy(() -> ((TransientWrites) a).tryEnqueueTransient(List.of(task(1_000))))
                    .isInstanceOf(StoreClosedException.class);
            assertThat(gauge("mikyu.engine.transient.tasks")).as("tasks counted with the queue gone").isZero();
            assertThat(gauge("mikyu.engine.transient.bytes")).as("bytes counted with the queue gone").isZero();
        }
    }

    @Test
    void deletingTheQueueReleasesABlockedSendersMemoryForOthers() throws Exception {
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimit(ONE)
                .transientMemoryBlockTimeout(Duration.ofMinutes(10)).build())) {
            TaskQueue a = store.createTaskQueue("a");
            TaskQueue b = store.createTaskQueue("b");
            a.enqueueTransient(List.of(task(1_000)));
            try (BackgroundCall<Long> send = BackgroundCall.start("blocked-send",
                    () -> b.enqueueTransient(List.of(task(1_000))))) {
                send.awaitTimedWaiting();
                assertThat(send.isDone()).isFalse();
                store.deleteTaskQueue("a");
                assertThat(send.get()).isPositive();
            }
            assertThat(b.counts().ready()).isEqualTo(1);
        }
    }

    @Test
    void spillWritesWhatIsOverTheLimitAndEverythingArrives() throws Exception {
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimit(2 * ONE)
                .transientMemoryPolicy(TransientMemoryPolicy.SPILL).build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            for (int i = 0; i < 10; i++) {
                q.enqueueTransient(List.of(Task.of("m" + i + "-".repeat(1_000))));
            }
            assertThat(gauge("mikyu.engine.transient.tasks")).isEqualTo(1);
            assertThat(counter("mikyu.engine.transient.spilled")).isEqualTo(9);
            assertThat(q.counts().ready()).isEqualTo(10);
            List<LeasedTask> got = q.dequeue(20, LEASE, Duration.ZERO, null);
            assertThat(got).hasSize(10);
            for (LeasedTask t : got) {
                q.ack(t.token());
            }
            assertThat(gauge("mikyu.engine.transient.bytes")).isZero();
        }
    }

    @Test
    void theLimitIsOffWithZero() {
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimit(0)
                .transientMemoryPolicy(TransientMemoryPolicy.FAIL).build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            for (int i = 0; i < 100; i++) {
                q.enqueueTransient(List.of(task(10_000)));
            }
            assertThat(gauge("mikyu.engine.transient.bytes")).isEqualTo(100 * (10_000 + 192));
        }
    }

    @Test
    void theCallsThatMayNotWaitSayMemoryFullAndEnqueueNothing() throws Exception {
        try (Mikyu store = Mikyu.open(data, config().transientMemoryLimit(ONE)
                .transientMemoryBlockTimeout(Duration.ofMinutes(10)).build())) {
            TaskQueue q = store.createTaskQueue("jobs");
            TransientWrites writes = (TransientWrites) q;
            assertThat(writes.tryEnqueueTransient(List.of(task(1_000)))).isNotEqualTo(TransientWrites.MEMORY_FULL);
            assertThat(writes.tryEnqueueTransient(List.of(task(1_000)))).isEqualTo(TransientWrites.MEMORY_FULL);
            assertThat(writes.enqueueTransientUnlessFull(List.of(task(1_000)))).isEqualTo(TransientWrites.MEMORY_FULL);
            assertThat(q.counts().ready()).isEqualTo(1);
            assertThat(counter("mikyu.engine.transient.blocked")).as("nothing waited").isZero();
            q.ack(q.dequeue(1, LEASE, Duration.ZERO, null).get(0).token());
            assertThat(writes.enqueueTransientUnlessFull(List.of(task(1_000)))).isNotEqualTo(TransientWrites.MEMORY_FULL);
            assertThat(q.counts().ready()).isEqualTo(1);
        }
    }

    @Test
    void theDefaultLimitIsAQuarterOfTheHeap() {
        assertThat(EngineConfig.defaults().transientMemoryLimit())
                .isEqualTo((long) (Runtime.getRuntime().maxMemory() * 0.25));
        assertThat(EngineConfig.defaults().transientMemoryPolicy()).isEqualTo(TransientMemoryPolicy.BLOCK);
        assertThat(EngineConfig.defaults().transientMemoryBlockTimeout()).isEqualTo(Duration.ofSeconds(30));
    }

}
