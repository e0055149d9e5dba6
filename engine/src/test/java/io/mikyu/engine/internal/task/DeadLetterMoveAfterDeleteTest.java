package io.mikyu.engine.internal.task;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.txn.TxTarget;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's timer moves a dead letter in two steps: under the queue's lock it marks the task whose last lease
 * ended as leaving, then it lets the lock go and moves the task to the dead-letter queue. The queue may be deleted
 * (and created again under its name) between the two. Each test takes the timer's two steps itself, with the
 * delete in between, in the order a descheduled timer thread leaves them.
 */
@Timeout(60)
class DeadLetterMoveAfterDeleteTest {

    private static final Duration LEASE = Duration.ofSeconds(5);
    private static final TaskQueueConfig ONE_ATTEMPT = TaskQueueConfig.defaults().withMaxAttempts(1);

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();
    private final MeterRegistry meters = new SimpleMeterRegistry();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).meterRegistry(meters).build());
    }

    @Test
    void aTransientDeadLetterMovedAfterItsQueueWasDeletedLeavesNothingCounted() throws Exception {
        try (Mikyu store = open()) {
            TaskQueueHandle queue = (TaskQueueHandle) store.createTaskQueue("jobs", ONE_ATTEMPT);
            queue.enqueueTransient(List.of(Task.of("in memory")));
            assertThat(queue.dequeue(1, LEASE, Duration.ZERO, null)).hasSize(1);
            List<TaskEntry> leaving = leaseRunsOut(queue);

            store.deleteTaskQueue("jobs");
            assertThat(gauge("mikyu.engine.transient.tasks")).as("nothing counted once the queue is gone").isZero();

            queue.ledger.deadLetters.move(leaving); // the timer goes on: its dead-letter queue is gone too

            assertThat(gauge("mikyu.engine.transient.tasks")).as("tasks counted after the late move").isZero();
            assertThat(gauge("mikyu.engine.transient.bytes")).as("bytes counted after the late move").isZero();
        }
    }

    @Test
    void aPersistentDeadLetterMovedAfterItsQueueWasCreatedAgainLeavesTheNewQueuesTaskAlone() throws Exception {
        try (Mikyu store = open()) {
            TaskQueueHandle old = (TaskQueueHandle) store.createTaskQueue("jobs", ONE_ATTEMPT);
            old.enqueue(Task.of("old"));
            assertThat(old.dequeue(1, LEASE, Duration.ZERO, null)).hasSize(1);
            List<TaskEntry> leaving = leaseRunsOut(old);

            store.deleteTaskQueue("jobs");
            TaskQueue fresh = store.createTaskQueue("jobs", ONE_ATTEMPT);
            long id = fresh.enqueue(Task.of("new"));
            assertThat(id).as("the new queue's task has the old one's id").isEqualTo(leaving.get(0).id);

            old.ledger.deadLetters.move(leaving); // the timer goes on with the deleted queue's task

            assertThat(fresh.counts().depth()).as("the new queue's task is still there").isEqualTo(1);
            assertThat(fresh.deadLetters().counts().depth()).as("the new dead-letter queue").isZero();
            List<LeasedTask> taken = fresh.dequeue(1, LEASE, Duration.ZERO, null);
            assertThat(taken).hasSize(1);
            assertThat(new String(taken.get(0).payload(), StandardCharsets.UTF_8)).isEqualTo("new");
        }
        try (Mikyu store = open()) {
            assertThat(store.taskQueue("jobs").counts().depth()).as("after a restart").isEqualTo(1);
            assertThat(store.taskQueue("jobs").deadLetters().counts().depth()).isZero();
        }
    }

    @Test
    void aPersistentDeadLetterReadBeforeItsQueueWasCreatedAgainLeavesTheNewQueuesTaskAlone() throws Exception {
        try (Mikyu store = open()) {
            TaskQueueHandle old = (TaskQueueHandle) store.createTaskQueue("jobs", ONE_ATTEMPT);
            old.enqueue(Task.of("old"));
            assertThat(old.dequeue(1, LEASE, Duration.ZERO, null)).hasSize(1);
            List<TaskEntry> leaving = leaseRunsOut(old);
            TaskQueue[] fresh = new TaskQueue[1];
            // The move as the deleted queue's mover makes it, its read of the task being where the timer thread
            // was descheduled: the queue is deleted and created again under its name, and a task enqueued with
            // the same id, between the read and the move's transaction (which names its queues by name).
            LongFunction<Record> readThenRecreate = id -> {
                Record read = old.storage().read(id, 1, Long.MAX_VALUE).get(0);
                store.deleteTaskQueue("jobs");
                fresh[0] = store.createTaskQueue("jobs", ONE_ATTEMPT);
                assertThat(fresh[0].enqueue(Task.of("new"))).as("the same id").isEqualTo(id);
                return read;
            };
            DeadLetterMover mover = new DeadLetterMover("jobs", old.ledger.lock, old.ledger.state, clock,
                    old.ledger.deadLetters.queue(), readThenRecreate, TxTarget.task("jobs"), commitOf(old));

            mover.move(leaving);

            assertThat(fresh[0].counts().depth()).as("the new queue's task is still there").isEqualTo(1);
            assertThat(fresh[0].deadLetters().counts().depth()).as("nothing in the new dead-letter queue").isZero();
            List<LeasedTask> taken = fresh[0].dequeue(1, LEASE, Duration.ZERO, null);
            assertThat(new String(taken.get(0).payload(), StandardCharsets.UTF_8)).isEqualTo("new");
        }
        try (Mikyu store = open()) {
            assertThat(store.taskQueue("jobs").counts().depth()).as("after a restart").isEqualTo(1);
            assertThat(store.taskQueue("jobs").deadLetters().counts().depth()).isZero();
        }
    }

    /** The store's commit a queue's mover makes its moves with. */
    @SuppressWarnings("unchecked")
    private static Consumer<List<TxOp>> commitOf(TaskQueueHandle queue) throws ReflectiveOperationException {
        Field f = DeadLetterMover.class.getDeclaredField("transactions");
        f.setAccessible(true);
        return (Consumer<List<TxOp>>) f.get(queue.ledger.deadLetters);
    }

    /**
     * The timer's first step: the clock passes the lease's end and the ended lease, its last attempt, marks the task
     * as leaving. Under the queue's lock, so the store's own timer cannot take that step first.
     */
    private List<TaskEntry> leaseRunsOut(TaskQueueHandle queue) {
        List<TaskEntry> leaving = new ArrayList<>();
        queue.ledger.withLock(() -> {
            clock.advance(LEASE.multipliedBy(2));
            leaving.addAll(queue.ledger.state.promote(clock.steadyMillis()));
        });
        assertThat(leaving).hasSize(1);
        return leaving;
    }

    private double gauge(String name) {
        return meters.get(name).gauge().value();
    }
}
