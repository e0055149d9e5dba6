package io.mikyu.engine.internal.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.HeaderEquals;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reading cold tasks back into the window happens without the queue's lock: a top-up is planned under the lock,
 * read without it and finished under it again. While one is in flight, everything else about the queue goes on
 * (acks, nacks, enqueues, filtered takes, purge), a take that needs the tasks being read waits for them, and the
 * top-up never delivers a task twice, out of order, or one that something else took meanwhile.
 */
class WindowTopUpTest {

    private static final int WINDOW = TaskWindowTest.WINDOW;
    private static final Duration LEASE = Duration.ofMinutes(1);

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().taskWindow(WINDOW).timeSource(clock).build());
    }

    private static LeaseLedger ledger(TaskQueue q) {
        return ((TaskQueueHandle) q).ledger;
    }

    /** Plans a top-up as a take would, and leaves it in flight: not read, not finished. */
    private static ReadyWindow.TopUp planTopUp(TaskQueue q) {
        ReadyWindow.TopUp[] planned = new ReadyWindow.TopUp[1];
        ledger(q).withLock(() -> planned[0] = ledger(q).state.planTopUp());
        assertThat(planned[0]).as("a top-up is wanted").isNotNull();
        return planned[0];
    }

    /** Reads the top-up without the lock and finishes it under the lock, as a take does. */
    private void finish(TaskQueue q, ReadyWindow.TopUp topUp) {
        ledger(q).state.readTopUp(topUp);
        ledger(q).withLock(() -> {
            ledger(q).state.finishTopUp(topUp, clock.steadyMillis());
            ledger(q).waiting.wakeAll();
        });
    }

    private static List<String> names(String prefix, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(prefix + i);
        }
        return out;
    }

    /** Thirty tasks t0..t29: the window's ten leased, twenty left in the log only. */
    private static List<LeasedTask> thirtyTasksTheFirstTenLeased(TaskQueue q) throws InterruptedException {
        for (int i = 0; i < 30; i++) {
            q.enqueue(Task.of("t" + i));
        }
        List<LeasedTask> held = q.dequeue(WINDOW, LEASE, Duration.ZERO, null);
        assertThat(held).extracting(TaskWindowTest::text).containsExactlyElementsOf(names("t", 0, WINDOW));
        return held;
    }

    private static List<String> drain(TaskQueue q) throws InterruptedException {
        return TaskWindowTest.drain(q, WINDOW); // leased tasks of the test may still be held
    }

    @Test
    void aTakeThatNeedsTheTasksBeingReadWaitsForTheTopUpAndGetsTheNextInOrder() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            List<LeasedTask> held = thirtyTasksTheFirstTenLeased(q);
            ReadyWindow.TopUp topUp = planTopUp(q);

            CompletableFuture<List<LeasedTask>> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return q.dequeue(1, LEASE, Duration.ZERO, null); // would not wait, but the next task is coming
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());
            assertThat(q.counts()).as("counts stay exact while the top-up is in flight")
                    .isEqualTo(new TaskCounts(20, 0, 10));

            finish(q, topUp);
            List<LeasedTask> next = waiting.get(10, TimeUnit.SECONDS);
            assertThat(next).extracting(TaskWindowTest::text).containsExactly("t10");
            for (LeasedTask t : held) {
                q.ack(t.token());
            }
            q.ack(next.get(0).token());
            assertThat(drain(q)).containsExactlyElementsOf(names("t", 11, 30));
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
        }
    }

    @Test
    void acksNacksAndEnqueuesGoOnWhileATopUpIsInFlight() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            List<LeasedTask> held = thirtyTasksTheFirstTenLeased(q);
            ReadyWindow.TopUp topUp = planTopUp(q);

            // Other threads, while the read is in flight: none of them waits for it.
            ExecutorService others = Executors.newFixedThreadPool(2);
            try {
                Future<?> acks = others.submit(() -> {
                    for (LeasedTask t : held.subList(0, 8)) {
                        q.ack(t.token());
                    }
                    q.nack(held.get(8).token(), Duration.ofMinutes(5), "later");
                    return null;
                });
                Future<?> enqueues = others.submit(() -> {
                    for (int i = 30; i < 35; i++) {
                        q.enqueue(Task.of("t" + i));
                    }
                    return null;
                });
                acks.get(10, TimeUnit.SECONDS);
                enqueues.get(10, TimeUnit.SECONDS);
            } finally {
                others.shutdownNow();
            }
            assertThat(q.counts()).isEqualTo(new TaskCounts(25, 1, 1));

            finish(q, topUp);
            assertThat(q.counts()).as("the top-up moved tasks, it did not count them again")
                    .isEqualTo(new TaskCounts(25, 1, 1));
            assertThat(drain(q)).containsExactlyElementsOf(names("t", 10, 35));
            q.ack(held.get(9).token());
            clock.advance(Duration.ofMinutes(6));
            List<LeasedTask> back = q.dequeue(5, LEASE, Duration.ZERO, null);
            assertThat(back).extracting(TaskWindowTest::text).containsExactly("t8");
            assertThat(back.get(0).attempt()).isEqualTo(2);
        }
    }

    @Test
    void aTaskAFilteredTakeFoundWhileATopUpWasInFlightIsNotDeliveredAgain() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            Headers a = Headers.builder().add("kind", "a").build();
            Headers b = Headers.builder().add("kind", "b").build();
            for (int i = 0; i < 30; i++) {
                q.enqueue(Task.of((i == 14 ? "b" : "a") + i).withHeaders(i == 14 ? b : a));
            }
            List<LeasedTask> held = q.dequeue(WINDOW, LEASE, Duration.ZERO, null);
            ReadyWindow.TopUp topUp = planTopUp(q);

            List<LeasedTask> matched = q.dequeue(5, LEASE, Duration.ZERO, HeaderEquals.of("kind", "b"));
            assertThat(matched).extracting(TaskWindowTest::text).containsExactly("b14");
            finish(q, topUp);

            for (LeasedTask t : held) {
                q.ack(t.token());
            }
            q.ack(matched.get(0).token());
            List<String> expected = new ArrayList<>(names("a", 10, 30));
            expected.remove("a14");
            assertThat(drain(q)).containsExactlyElementsOf(expected);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
        }
    }

    @Test
    void aPurgeWhileATopUpIsInFlightLeavesNothingToHold() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            List<LeasedTask> held = thirtyTasksTheFirstTenLeased(q);
            ReadyWindow.TopUp topUp = planTopUp(q);
            q.purge();
            q.enqueue(Task.of("after"));
            finish(q, topUp);
            assertThat(held).hasSize(WINDOW);
            assertThat(drain(q)).containsExactly("after");
        }
    }

    @Test
    void consumersAckingAndNackingConcurrentlyAcrossManyTopUpsSeeEveryTaskAckedOnce() throws Exception {
        int tasks = 3_000;
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            for (int i = 0; i < tasks; i += 100) {
                List<Task> batch = new ArrayList<>();
                for (int j = i; j < i + 100; j++) {
                    batch.add(Task.of("t" + j));
                }
                q.enqueueBatch(batch, io.mikyu.engine.Durability.ASYNC);
            }
            ConcurrentHashMap<String, Boolean> acked = new ConcurrentHashMap<>();
            AtomicInteger duplicates = new AtomicInteger();
            AtomicInteger nacks = new AtomicInteger();
            ExecutorService consumers = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int c = 0; c < 4; c++) {
                    running.add(consumers.submit(() -> {
                        while (acked.size() < tasks) {
                            List<LeasedTask> got = q.dequeue(3, LEASE, Duration.ofMillis(50), null);
                            List<LeaseToken> ack = new ArrayList<>();
                            for (LeasedTask t : got) {
                                // Every seventh first delivery is given back at once: it comes back out of order.
                                if (t.attempt() == 1 && t.id() % 7 == 0) {
                                    q.nack(t.token(), Duration.ZERO, "again");
                                    nacks.incrementAndGet();
                                } else {
                                    ack.add(t.token());
                                }
                            }
                            if (!ack.isEmpty()) {
                                q.ack(ack);
                            }
                            for (LeasedTask t : got) {
                                if (ack.contains(t.token()) && acked.put(TaskWindowTest.text(t), true) != null) {
                                    duplicates.incrementAndGet();
                                }
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : running) {
                    f.get(2, TimeUnit.MINUTES);
                }
            } finally {
                consumers.shutdownNow();
            }
            assertThat(duplicates.get()).isZero();
            assertThat(nacks.get()).isPositive();
            assertThat(acked.keySet()).containsExactlyInAnyOrderElementsOf(names("t", 0, tasks));
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
        }
    }
}
