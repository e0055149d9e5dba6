package io.mikyu.engine.internal.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Producer pacing never makes a worker wait for itself: a thread that takes tasks and enqueues follow-ups to the
 * same crowded queue is the consumer the pacing would wait for.
 */
class SelfPacingTest {

    @TempDir
    Path data;

    @Test
    void aWorkerThatReEnqueuesIntoACrowdedQueueIsNotPacedByItsOwnTakes() throws Exception {
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().paceProducersAbove(100).build())) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            List<Task> backlog = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                backlog.add(Task.of("t" + i));
            }
            q.enqueueBatch(backlog);
            LeaseLedger ledger = ((TaskQueueHandle) q).ledger;
            for (int i = 0; i < 200; i++) {
                LeasedTask t = q.dequeue(Duration.ofMinutes(1));
                q.ack(t.token());
                q.enqueue(Task.of("follow-up of " + t.id()));
            }
            assertThat(ledger.pacing.pacedWaits()).as("enqueues that waited for consumers").isZero();
        }
    }

    @Test
    void aProducerBesideBusyConsumersOfACrowdedQueueIsPaced() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().paceProducersAbove(100).build())) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            List<Task> backlog = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                backlog.add(Task.of("t" + i));
            }
            q.enqueueBatch(backlog);
            AtomicBoolean consuming = new AtomicBoolean(true);
            java.util.concurrent.atomic.AtomicInteger taken = new java.util.concurrent.atomic.AtomicInteger();
            pool.submit(() -> {
                while (consuming.get()) {
                    for (LeasedTask t : q.dequeue(10, Duration.ofMinutes(1), Duration.ofMillis(10), null)) {
                        q.ack(t.token());
                        taken.incrementAndGet();
                    }
                }
                return null;
            });
            await("the consumer took its first tasks").atMost(Duration.ofSeconds(30)).until(() -> taken.get() > 0);
            LeaseLedger ledger = ((TaskQueueHandle) q).ledger;
            List<Task> more = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                more.add(Task.of("more"));
            }
            for (int i = 0; i < 1_000 && ledger.pacing.pacedWaits() == 0; i++) {
                q.enqueueBatch(more); // faster than the consumer's bites of 10: the queue stays crowded
            }
            consuming.set(false);
            assertThat(ledger.pacing.pacedWaits()).as("enqueues that waited for consumers").isPositive();
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
