package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.support.BackgroundCall;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
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

/**
 * A waiting dequeue returns as soon as there is work; competing consumers each get distinct tasks. Each waiting
 * consumer is seen parked before the event that should wake it, with a wait far longer than the test may take: so
 * it returning proves the wake-up. Delays and leases run on a clock the tests move.
 */
@Timeout(60)
class LongPollAndConcurrencyTest {

    /** Longer than the class's timeout: a consumer that returns did not do so because its wait ended. */
    private static final Duration LONG_WAIT = Duration.ofMinutes(10);

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    private static BackgroundCall<LeasedTask> waitingConsumer(TaskQueue q) {
        return BackgroundCall.start("consumer", () -> q.dequeue(LONG_WAIT)).awaitTimedWaiting();
    }

    private static BackgroundCall<List<LeasedTask>> waitingConsumer(TaskQueue q, TaskFilter filter) {
        return BackgroundCall.start("consumer", () -> q.dequeue(1, LONG_LEASE, LONG_WAIT, filter)).awaitTimedWaiting();
    }

    @Test
    void aWaitingDequeueReturnsPromptlyWhenATaskIsEnqueued() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            try (BackgroundCall<LeasedTask> waiting = waitingConsumer(q)) {
                assertThat(waiting.isDone()).as("nothing to take yet").isFalse();
                long id = q.enqueue(Task.of("wake up"));
                assertThat(waiting.get().id()).as("woken by the enqueue").isEqualTo(id);
            }
        }
    }

    @Test
    void aWaitingDequeueReturnsEmptyAfterTheWait() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            // the wait is real time (how long the caller is willing to block), so it is measured as such
            long start = System.nanoTime();
            assertThat(q.dequeue(3, LONG_LEASE, Duration.ofMillis(400), null)).isEmpty();
            assertThat(millisSince(start)).as("waited the whole wait").isGreaterThanOrEqualTo(400L);
            start = System.nanoTime();
            assertThat(q.dequeue(Duration.ofMillis(200))).isNull();
            assertThat(millisSince(start)).as("waited the whole wait").isGreaterThanOrEqualTo(200L);
            assertThat(q.dequeue(Duration.ZERO)).as("no wait: returns at once (the class timeout bounds it)")
                    .isNull();
        }
    }

    @Test
    void aWaitingDequeueWakesWhenADelayedTaskBecomesDue() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("soon").deliverAt(clock.wallAfter(Duration.ofMillis(300))));
            try (BackgroundCall<LeasedTask> waiting = waitingConsumer(q)) {
                clock.advance(Duration.ofMillis(299));
                assertThat(q.counts()).as("not due yet").isEqualTo(new TaskCounts(0, 1, 0));
                assertThat(waiting.isDone()).isFalse();
                clock.advance(Duration.ofMillis(1));
                assertThat(waiting.get()).as("woken when the task came due, not at the end of the wait")
                        .isNotNull();
            }
        }
    }

    @Test
    void aWaitingDequeueWakesWhenATaskIsNacked() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0);
            try (BackgroundCall<LeasedTask> waiting = waitingConsumer(q)) {
                assertThat(waiting.isDone()).isFalse();
                q.nack(t.token(), Duration.ZERO, "give back");
                assertThat(waiting.get().attempt()).isEqualTo(2);
            }
        }
    }

    @Test
    void aWaitingDequeueWakesWhenALeaseRunsOut() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withBackoff(Duration.ofMillis(50), 2.0,
                    Duration.ofMillis(50)));
            q.enqueue(Task.of("x"));
            q.dequeue(1, Duration.ofMillis(300), Duration.ZERO, null);
            try (BackgroundCall<LeasedTask> waiting = waitingConsumer(q)) {
                clock.advance(Duration.ofMillis(349));
                assertThat(q.counts()).as("lease 300 ms + backoff 50 ms not over").isEqualTo(new TaskCounts(0, 1, 0));
                assertThat(waiting.isDone()).isFalse();
                clock.advance(Duration.ofMillis(1));
                assertThat(waiting.get().attempt()).isEqualTo(2);
            }
        }
    }

    @Test
    void aWaitingDequeueWakesWhenAnExtendShortensALease() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withBackoff(Duration.ofMillis(50), 2.0,
                    Duration.ofMillis(50)));
            q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0); // 60 s lease
            try (BackgroundCall<LeasedTask> waiting = waitingConsumer(q)) {
                q.extend(t.token(), Duration.ofMillis(200)); // "the lease is now 200 ms from now"
                clock.advance(Duration.ofMillis(249));
                assertThat(q.counts()).as("new lease 200 ms + backoff 50 ms not over")
                        .isEqualTo(new TaskCounts(0, 1, 0));
                assertThat(waiting.isDone()).isFalse();
                clock.advance(Duration.ofMillis(1));
                assertThat(waiting.get().attempt()).isEqualTo(2);
            }
        }
    }

    @Test
    void aWaitingDequeueCanBeInterrupted() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            try (BackgroundCall<LeasedTask> waiting = waitingConsumer(q)) {
                waiting.interrupt();
                assertThatThrownBy(waiting::get).isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(InterruptedException.class);
            }
            q.enqueue(Task.of("still works"));
            assertThat(q.dequeue(Duration.ZERO)).isNotNull();
        }
    }

    @Test
    void severalWaitingConsumersAreAllServed() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            List<BackgroundCall<LeasedTask>> waiting = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    waiting.add(waitingConsumer(q));
                }
                q.enqueueBatch(List.of(Task.of("a"), Task.of("b"), Task.of("c"), Task.of("d")));
                List<Long> ids = new ArrayList<>();
                for (BackgroundCall<LeasedTask> w : waiting) {
                    LeasedTask t = w.get();
                    assertThat(t).isNotNull();
                    ids.add(t.id());
                }
                assertThat(ids).doesNotHaveDuplicates().hasSize(4);
            } finally {
                closeAll(waiting);
            }
        }
    }

    @Test
    void tasksEnqueuedOneByOneReachEveryWaitingConsumer() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            List<BackgroundCall<LeasedTask>> waiting = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    waiting.add(waitingConsumer(q));
                }
                for (int i = 0; i < 4; i++) {
                    q.enqueue(Task.of("t" + i));
                }
                // a lost wake-up would leave a consumer asleep for its whole wait, far beyond get's deadline
                List<Long> ids = new ArrayList<>();
                for (BackgroundCall<LeasedTask> w : waiting) {
                    ids.add(w.get().id());
                }
                assertThat(ids).doesNotHaveDuplicates().hasSize(4);
            } finally {
                closeAll(waiting);
            }
        }
    }

    @Test
    void aTaskWakesTheWaitingConsumerWhoseFilterItMatchesWhileOthersWait() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            TaskFilter eu = new TaskTesting.HeaderEquals("region", "eu");
            TaskFilter us = new TaskTesting.HeaderEquals("region", "us");
            try (BackgroundCall<List<LeasedTask>> euWaiter = waitingConsumer(q, eu);
                 BackgroundCall<List<LeasedTask>> usWaiter = waitingConsumer(q, us)) {
                // a lost wake-up would leave a consumer asleep for its whole wait, far beyond get's deadline
                q.enqueue(Task.of("for us").withHeaders(Headers.of("region", "us")));
                assertThat(usWaiter.get()).singleElement()
                        .satisfies(t -> assertThat(t.headers().getString("region")).isEqualTo("us"));
                assertThat(euWaiter.isDone()).isFalse();
                // an unfiltered consumer waiting beside a filtered one: a task only it can take still reaches it
                try (BackgroundCall<List<LeasedTask>> anyWaiter = waitingConsumer(q, null)) {
                    q.enqueue(Task.of("for anyone").withHeaders(Headers.of("region", "ch")));
                    assertThat(anyWaiter.get()).hasSize(1);
                }
                q.enqueue(Task.of("for eu").withHeaders(Headers.of("region", "eu")));
                assertThat(euWaiter.get()).singleElement()
                        .satisfies(t -> assertThat(t.headers().getString("region")).isEqualTo("eu"));
            }
        }
    }

    @Test
    void delayedTasksReachEveryWaitingConsumerWhenDue() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            List<BackgroundCall<LeasedTask>> waiting = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    waiting.add(waitingConsumer(q));
                }
                Instant due = clock.wallAfter(Duration.ofMillis(300));
                q.enqueueBatch(List.of(Task.of("a").deliverAt(due), Task.of("b").deliverAt(due),
                        Task.of("c").deliverAt(due)));
                clock.advance(Duration.ofMillis(299));
                assertThat(q.counts()).as("not due yet").isEqualTo(new TaskCounts(0, 3, 0));
                assertThat(waiting).noneMatch(BackgroundCall::isDone);
                clock.advance(Duration.ofMillis(1));
                for (BackgroundCall<LeasedTask> w : waiting) {
                    assertThat(w.get()).isNotNull();
                }
            } finally {
                closeAll(waiting);
            }
        }
    }

    private static void closeAll(List<? extends BackgroundCall<?>> calls) throws InterruptedException {
        for (BackgroundCall<?> c : calls) {
            c.close();
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
