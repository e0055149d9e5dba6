package io.mikyu.engine.task;

import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.fast;
import static io.mikyu.engine.task.TaskTesting.millisSince;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A waiting dequeue returns as soon as there is work; competing consumers each get distinct tasks. */
@Timeout(60)
class LongPollAndConcurrencyTest {

    @TempDir
    Path data;

    @Test
    void aWaitingDequeueReturnsPromptlyWhenATaskIsEnqueued() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            Future<LeasedTask> waiting = pool.submit(() -> q.dequeue(Duration.ofSeconds(20)));
            Thread.sleep(200);
            assertThat(waiting.isDone()).isFalse();
            long start = System.nanoTime();
            long id = q.enqueue(Task.of("wake up"));
            LeasedTask t = waiting.get(10, TimeUnit.SECONDS);
            assertThat(millisSince(start)).as("latency from enqueue to the waiting consumer").isLessThan(1_000);
            assertThat(t.id()).isEqualTo(id);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aWaitingDequeueReturnsEmptyAfterTheWait() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            long start = System.nanoTime();
            assertThat(q.dequeue(3, LONG_LEASE, Duration.ofMillis(400), null)).isEmpty();
            assertThat(millisSince(start)).isBetween(350L, 2_000L);
            start = System.nanoTime();
            assertThat(q.dequeue(Duration.ofMillis(200))).isNull();
            assertThat(millisSince(start)).isBetween(150L, 2_000L);
            start = System.nanoTime();
            assertThat(q.dequeue(Duration.ZERO)).isNull();
            assertThat(millisSince(start)).isLessThan(500);
        }
    }

    @Test
    void aWaitingDequeueWakesWhenADelayedTaskBecomesDue() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            long start = System.nanoTime();
            q.enqueue(Task.of("soon").withDelay(Duration.ofMillis(300)));
            LeasedTask t = q.dequeue(Duration.ofSeconds(5));
            long elapsed = millisSince(start);
            assertThat(t).isNotNull();
            assertThat(elapsed).as("woken when the task came due, not at the end of the wait")
                    .isBetween(240L, 1_500L);
        }
    }

    @Test
    void aWaitingDequeueWakesWhenATaskIsNacked() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0);
            Future<LeasedTask> waiting = pool.submit(() -> q.dequeue(Duration.ofSeconds(20)));
            Thread.sleep(150);
            assertThat(waiting.isDone()).isFalse();
            long start = System.nanoTime();
            q.nack(t.token(), Duration.ZERO, "give back");
            LeasedTask again = waiting.get(10, TimeUnit.SECONDS);
            assertThat(millisSince(start)).isLessThan(1_000);
            assertThat(again.attempt()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aWaitingDequeueWakesWhenALeaseRunsOut() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withBackoff(Duration.ofMillis(50), 2.0,
                    Duration.ofMillis(50)));
            q.enqueue(Task.of("x"));
            long start = System.nanoTime();
            q.dequeue(1, Duration.ofMillis(300), Duration.ZERO, null);
            Future<LeasedTask> waiting = pool.submit(() -> q.dequeue(Duration.ofSeconds(20)));
            LeasedTask again = waiting.get(10, TimeUnit.SECONDS);
            assertThat(millisSince(start)).as("lease 300 ms + backoff 50 ms").isBetween(280L, 1_500L);
            assertThat(again.attempt()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aWaitingDequeueWakesWhenAnExtendShortensALease() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withBackoff(Duration.ofMillis(50), 2.0,
                    Duration.ofMillis(50)));
            q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0); // 60 s lease
            Future<LeasedTask> waiting = pool.submit(() -> q.dequeue(Duration.ofSeconds(20)));
            Thread.sleep(150);
            long start = System.nanoTime();
            q.extend(t.token(), Duration.ofMillis(200)); // "the lease is now 200 ms from now"
            LeasedTask again = waiting.get(3, TimeUnit.SECONDS);
            assertThat(millisSince(start)).as("new lease 200 ms + backoff 50 ms").isBetween(150L, 1_500L);
            assertThat(again.attempt()).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aWaitingDequeueCanBeInterrupted() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            Thread self = Thread.currentThread();
            Thread interrupter = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ignored) {
                    return;
                }
                self.interrupt();
            });
            interrupter.start();
            long start = System.nanoTime();
            assertThatThrownBy(() -> q.dequeue(Duration.ofSeconds(20))).isInstanceOf(InterruptedException.class);
            assertThat(millisSince(start)).isLessThan(5_000);
            Thread.interrupted();
            interrupter.join();
            q.enqueue(Task.of("still works"));
            assertThat(q.dequeue(Duration.ZERO)).isNotNull();
        }
    }

    @Test
    void severalWaitingConsumersAreAllServed() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            List<Future<LeasedTask>> waiting = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                waiting.add(pool.submit(() -> q.dequeue(Duration.ofSeconds(20))));
            }
            Thread.sleep(200);
            q.enqueueBatch(List.of(Task.of("a"), Task.of("b"), Task.of("c"), Task.of("d")));
            List<Long> ids = new ArrayList<>();
            for (Future<LeasedTask> f : waiting) {
                LeasedTask t = f.get(5, TimeUnit.SECONDS);
                assertThat(t).isNotNull();
                ids.add(t.id());
            }
            assertThat(ids).doesNotHaveDuplicates().hasSize(4);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tasksEnqueuedOneByOneReachEveryWaitingConsumer() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            List<Future<LeasedTask>> waiting = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                waiting.add(pool.submit(() -> q.dequeue(Duration.ofSeconds(30))));
            }
            Thread.sleep(200);
            long start = System.nanoTime();
            for (int i = 0; i < 4; i++) {
                q.enqueue(Task.of("t" + i));
            }
            List<Long> ids = new ArrayList<>();
            for (Future<LeasedTask> f : waiting) {
                ids.add(f.get(10, TimeUnit.SECONDS).id());
            }
            // a lost wake-up would leave a consumer asleep for its whole 30 s wait
            assertThat(millisSince(start)).isLessThan(5_000);
            assertThat(ids).doesNotHaveDuplicates().hasSize(4);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTaskWakesTheWaitingConsumerWhoseFilterItMatchesWhileOthersWait() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            TaskFilter eu = new TaskTesting.HeaderEquals("region", "eu");
            TaskFilter us = new TaskTesting.HeaderEquals("region", "us");
            Future<List<LeasedTask>> euWaiter = pool.submit(() -> q.dequeue(1, LONG_LEASE, Duration.ofSeconds(30), eu));
            Thread.sleep(100);
            Future<List<LeasedTask>> usWaiter = pool.submit(() -> q.dequeue(1, LONG_LEASE, Duration.ofSeconds(30), us));
            Thread.sleep(200);
            long start = System.nanoTime();
            q.enqueue(Task.of("for us").withHeaders(Headers.of("region", "us")));
            assertThat(usWaiter.get(10, TimeUnit.SECONDS)).singleElement()
                    .satisfies(t -> assertThat(t.headers().getString("region")).isEqualTo("us"));
            assertThat(euWaiter.isDone()).isFalse();
            // an unfiltered consumer waiting beside a filtered one: a task only it can take still reaches it
            Future<List<LeasedTask>> anyWaiter = pool.submit(() -> q.dequeue(1, LONG_LEASE, Duration.ofSeconds(30), null));
            Thread.sleep(200);
            q.enqueue(Task.of("for anyone").withHeaders(Headers.of("region", "ch")));
            assertThat(anyWaiter.get(10, TimeUnit.SECONDS)).hasSize(1);
            q.enqueue(Task.of("for eu").withHeaders(Headers.of("region", "eu")));
            assertThat(euWaiter.get(10, TimeUnit.SECONDS)).singleElement()
                    .satisfies(t -> assertThat(t.headers().getString("region")).isEqualTo("eu"));
            // a lost wake-up would leave a consumer asleep for its whole 30 s wait
            assertThat(millisSince(start)).isLessThan(5_000);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void delayedTasksReachEveryWaitingConsumerWhenDue() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            List<Future<LeasedTask>> waiting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                waiting.add(pool.submit(() -> q.dequeue(Duration.ofSeconds(30))));
            }
            Thread.sleep(200);
            long start = System.nanoTime();
            q.enqueueBatch(List.of(Task.of("a").withDelay(Duration.ofMillis(300)),
                    Task.of("b").withDelay(Duration.ofMillis(300)), Task.of("c").withDelay(Duration.ofMillis(300))));
            for (Future<LeasedTask> f : waiting) {
                assertThat(f.get(10, TimeUnit.SECONDS)).isNotNull();
            }
            assertThat(millisSince(start)).isBetween(250L, 5_000L);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void competingConsumersGetEveryTaskExactlyOnceWhenAllAck() throws Exception {
        int total = 2000;
        int consumers = 4;
        ExecutorService pool = Executors.newFixedThreadPool(consumers + 1);
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
            Map<String, Long> payloadToId = new ConcurrentHashMap<>();
            AtomicInteger acked = new AtomicInteger();
            AtomicLong errors = new AtomicLong();
            List<Future<?>> futures = new ArrayList<>();
            // the producer runs while the consumers consume: singles and batches
            futures.add(pool.submit(() -> {
                int n = 0;
                while (n < total) {
                    if (n % 200 < 100) {
                        q.enqueue(Task.of("t" + n).withPriority(n % 10));
                        n++;
                    } else {
                        List<Task> batch = new ArrayList<>();
                        for (int k = 0; k < 25 && n < total; k++, n++) {
                            batch.add(Task.of("t" + n).withPriority(n % 10));
                        }
                        q.enqueueBatch(batch);
                    }
                }
                return null;
            }));
            for (int c = 0; c < consumers; c++) {
                int consumer = c;
                futures.add(pool.submit(() -> {
                    long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
                    while (acked.get() < total && System.nanoTime() < deadline) {
                        List<LeasedTask> got = q.dequeue(consumer + 1, LONG_LEASE, Duration.ofMillis(100), null);
                        List<LeaseToken> tokens = new ArrayList<>();
                        for (LeasedTask t : got) {
                            deliveries.merge(t.id(), 1, Integer::sum);
                            Long before = payloadToId.putIfAbsent(t.payloadAsString(), t.id());
                            if (before != null && before != t.id()) {
                                errors.incrementAndGet();
                            }
                            if (t.attempt() != 1) {
                                errors.incrementAndGet();
                            }
                            tokens.add(t.token());
                        }
                        if (consumer % 2 == 0) {
                            tokens.forEach(q::ack);
                        } else if (!tokens.isEmpty()) {
                            q.ack(tokens);
                        }
                        acked.addAndGet(tokens.size());
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(50, TimeUnit.SECONDS);
            }
            assertThat(errors.get()).as("redeliveries or id/payload mix-ups").isZero();
            assertThat(deliveries).hasSize(total);
            assertThat(deliveries.values()).as("every task delivered exactly once").containsOnly(1);
            assertThat(payloadToId).hasSize(total);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
            assertThat(q.dequeue(Duration.ofMillis(200))).isNull();
        } finally {
            pool.shutdownNow();
        }
    }
}
