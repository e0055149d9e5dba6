package io.mikyu.engine.task;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Transient tasks live in memory only, with every task-queue rule but durability. */
@Timeout(30)
class TransientTaskTest {

    private static final Duration LEASE = Duration.ofMinutes(1);

    @TempDir
    Path data;

    @Test
    void transientTasksAreLeasedAckedAndRetriedLikeStoredOnesAfterThem() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults().withMaxAttempts(2));
            q.enqueueTransient(List.of(Task.of("t1"), Task.of("t2").withPriority(9)));
            q.enqueue(Task.of("stored"));
            assertThat(q.counts().ready()).isEqualTo(3);
            assertThat(q.browse(10, null)).extracting(LeasedTask::payloadAsString)
                    .containsExactly("t2", "stored", "t1");
            List<LeasedTask> got = q.dequeue(3, LEASE, Duration.ZERO, null);
            assertThat(got).extracting(LeasedTask::payloadAsString).containsExactly("t2", "stored", "t1");
            q.ack(List.of(got.get(0).token(), got.get(1).token()));
            q.nack(got.get(2).token(), Duration.ZERO, "again");
            LeasedTask again = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            assertThat(again.payloadAsString()).isEqualTo("t1");
            assertThat(again.attempt()).isEqualTo(2);
            q.extend(again.token(), LEASE);
            q.nack(again.token(), Duration.ZERO, "last attempt");
            assertThat(q.counts().ready()).isZero();
            LeasedTask dead = q.deadLetters().dequeue(1, LEASE, Duration.ofSeconds(5), null).get(0);
            assertThat(dead.payloadAsString()).isEqualTo("t1");
            q.deadLetters().ack(dead.token());
        }
    }

    @Test
    void transientTasksAreGoneAfterAReopenAndStoredOnesStay() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs");
            q.enqueueTransient(List.of(Task.of("memory")));
            q.enqueue(Task.of("disk"));
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            q.returnUndelivered(List.of(t.token()));
        }
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.dequeue(5, LEASE, Duration.ZERO, null)).extracting(LeasedTask::payloadAsString)
                    .containsExactly("disk");
        }
    }
}
