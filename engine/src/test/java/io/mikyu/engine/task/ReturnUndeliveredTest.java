package io.mikyu.engine.task;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A prefetch buffer that closes gives its leased items back without counting the lease as a delivery. */
@Timeout(30)
class ReturnUndeliveredTest {

    private static final Duration LEASE = Duration.ofMinutes(5);

    @TempDir
    Path data;

    @Test
    void returnedTasksAreReadyAtOnceWithTheirAttemptCountUnchanged() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults().withMaxAttempts(2));
            q.enqueueBatch(List.of(Task.of("a"), Task.of("b")));
            List<LeasedTask> first = q.dequeue(2, LEASE, Duration.ZERO, null);
            assertThat(first).hasSize(2).allMatch(t -> t.attempt() == 1);

            q.returnUndelivered(first.stream().map(LeasedTask::token).toList());

            List<LeasedTask> again = q.dequeue(2, LEASE, Duration.ZERO, null);
            assertThat(again).extracting(LeasedTask::payloadAsString).containsExactly("a", "b");
            assertThat(again).as("a returned lease is not an attempt").allMatch(t -> t.attempt() == 1);
            assertThatThrownBy(() -> q.returnUndelivered(List.of(first.get(0).token())))
                    .isInstanceOf(StaleLeaseException.class);
        }
    }

    @Test
    void theLoweredAttemptCountSurvivesAReopen() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs");
            q.enqueue(Task.of("a"));
            LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            q.nack(t.token(), Duration.ZERO, "failed");
            LeasedTask second = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
            assertThat(second.attempt()).isEqualTo(2);
            q.returnUndelivered(List.of(second.token()));
        }
        try (Mikyu store = Mikyu.open(data)) {
            LeasedTask t = store.taskQueue("jobs").dequeue(1, LEASE, Duration.ZERO, null).get(0);
            assertThat(t.attempt()).as("one real delivery before, one now").isEqualTo(2);
        }
    }

    @Test
    void sharedGroupsReturnRecordsTheSameWay() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue log = store.createLog("events");
            SharedGroup g = log.sharedGroup("workers", SharedGroupConfig.defaults());
            log.append(Entry.of("x"));
            List<SharedGroup.Delivery> d = g.fetch(10, LEASE, Duration.ofSeconds(5));
            assertThat(d).hasSize(1);
            assertThat(d.get(0).deliveryCount()).isEqualTo(1);
            g.returnUndelivered(List.of(d.get(0).token()));
            List<SharedGroup.Delivery> again = g.fetch(10, LEASE, Duration.ofSeconds(5));
            assertThat(again).hasSize(1);
            assertThat(again.get(0).deliveryCount()).isEqualTo(1);
            assertThat(again.get(0).token()).isNotEqualTo(d.get(0).token());
        }
    }
}
