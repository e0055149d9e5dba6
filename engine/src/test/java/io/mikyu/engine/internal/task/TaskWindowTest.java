package io.mikyu.engine.internal.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.HeaderEquals;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A task queue holds at most its window of ready tasks in memory; the rest of its backlog stays in its log and is
 * read back in order. Every rule of the queue holds across the window's edge: FIFO within a priority, priorities,
 * delays, filters, browsing, expiry, dead letters, purge, transactions and a restart.
 */
class TaskWindowTest {

    static final int WINDOW = 10;
    private static final Duration LEASE = Duration.ofMinutes(1);

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().taskWindow(WINDOW).timeSource(clock).build());
    }

    private static TaskQueueState state(TaskQueue q) {
        return ((TaskQueueHandle) q).ledger.state;
    }

    private static int held(TaskQueue q) {
        int[] n = new int[1];
        ((TaskQueueHandle) q).ledger.withLock(() -> n[0] = state(q).heldCount());
        return n[0];
    }

    private static long cold(TaskQueue q) {
        long[] n = new long[1];
        ((TaskQueueHandle) q).ledger.withLock(() -> n[0] = state(q).coldCount());
        return n[0];
    }

    private static void enqueue(TaskQueue q, String prefix, int n) {
        for (int i = 0; i < n; i++) {
            q.enqueue(Task.of(prefix + i));
        }
    }

    static String text(LeasedTask t) {
        return new String(t.payload(), StandardCharsets.UTF_8);
    }

    /** Takes every ready task one at a time, acking each; the payloads in the order they came. */
    private static List<String> drain(TaskQueue q) throws InterruptedException {
        return drain(q, 0);
    }

    /** As {@link #drain(TaskQueue)}, with {@code leased} tasks held besides the window. */
    static List<String> drain(TaskQueue q, int leased) throws InterruptedException {
        List<String> out = new ArrayList<>();
        while (true) {
            List<LeasedTask> t = q.dequeue(1, LEASE, Duration.ZERO, null);
            if (t.isEmpty()) {
                return out;
            }
            out.add(text(t.get(0)));
            q.ack(t.get(0).token());
            assertThat(held(q)).as("tasks held while draining").isLessThanOrEqualTo(WINDOW + 1 + leased);
        }
    }

    private static List<String> names(String prefix, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(prefix + i);
        }
        return out;
    }

    @Test
    void aBacklogBeyondTheWindowStaysInTheLogAndIsDeliveredInOrder() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "t", 100);
            assertThat(held(q)).isEqualTo(WINDOW);
            assertThat(cold(q)).isEqualTo(90);
            assertThat(q.counts()).isEqualTo(new TaskCounts(100, 0, 0));
            assertThat(drain(q)).containsExactlyElementsOf(names("t", 100));
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
        }
    }

    @Test
    void countsStayExactWhileTasksAreLeasedAndTheWindowRefills() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "t", 50);
            List<LeasedTask> taken = q.dequeue(7, LEASE, Duration.ZERO, null);
            assertThat(taken).extracting(TaskWindowTest::text).containsExactlyElementsOf(names("t", 7));
            assertThat(q.counts()).isEqualTo(new TaskCounts(43, 0, 7));
            q.ack(taken.get(0).token());
            assertThat(q.counts()).isEqualTo(new TaskCounts(43, 0, 6));
        }
    }

    @Test
    void aHigherPriorityBeyondTheWindowIsDeliveredFirst() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "low", 30);
            for (int i = 0; i < 3; i++) {
                q.enqueue(Task.of("high" + i).withPriority(9));
            }
            assertThat(held(q)).as("the high ones went cold behind a full window").isEqualTo(WINDOW);
            List<String> expected = new ArrayList<>(names("high", 3));
            expected.addAll(names("low", 30));
            assertThat(drain(q)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aDelayedTaskBeyondTheWindowIsDeliveredWhenDueNotBefore() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "t", 30);
            q.enqueue(Task.of("delayed").withPriority(9).deliverAt(clock.wallAfter(Duration.ofSeconds(10))));
            assertThat(q.counts()).isEqualTo(new TaskCounts(30, 1, 0));
            clock.advance(Duration.ofMillis(9_999));
            assertThat(text(q.dequeue(1, LEASE, Duration.ZERO, null).get(0))).isEqualTo("t0");
            clock.advance(Duration.ofMillis(1));
            assertThat(text(q.dequeue(1, LEASE, Duration.ZERO, null).get(0))).isEqualTo("delayed");
        }
    }

    @Test
    void aFilteredTakeFindsMatchesThatAreOnlyBeyondTheWindow() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            Headers a = Headers.builder().add("kind", "a").build();
            Headers b = Headers.builder().add("kind", "b").build();
            for (int i = 0; i < 40; i++) {
                q.enqueue(Task.of("a" + i).withHeaders(a));
            }
            q.enqueue(Task.of("b0").withHeaders(b));
            q.enqueue(Task.of("a40").withHeaders(a));
            List<LeasedTask> t = q.dequeue(5, LEASE, Duration.ZERO, HeaderEquals.of("kind", "b"));
            assertThat(t).extracting(TaskWindowTest::text).containsExactly("b0");
            assertThat(q.counts()).isEqualTo(new TaskCounts(41, 0, 1));
            assertThat(held(q)).as("only the match was read into memory").isEqualTo(WINDOW + 1);
            assertThat(q.dequeue(5, LEASE, Duration.ZERO, HeaderEquals.of("kind", "b"))).isEmpty();
            q.ack(t.get(0).token());
            assertThat(drain(q)).containsExactlyElementsOf(names("a", 41));
        }
    }

    @Test
    void aFilterThatMatchesMuchOfTheColdBacklogReadsEachTaskAboutOnce() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            Headers a = Headers.builder().add("kind", "a").build();
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                tasks.add(Task.of("a" + i).withHeaders(a));
            }
            q.enqueueBatch(tasks);
            List<String> taken = new ArrayList<>();
            while (true) {
                List<LeasedTask> t = q.dequeue(1, LEASE, Duration.ZERO, HeaderEquals.of("kind", "a"));
                if (t.isEmpty()) {
                    break;
                }
                taken.add(text(t.get(0)));
                q.ack(t.get(0).token());
            }
            assertThat(taken).containsExactlyElementsOf(names("a", 2_000));
            long[] read = new long[1];
            ((TaskQueueHandle) q).ledger.withLock(() -> read[0] = state(q).coldRecordsRead());
            // One search holds the matches of its read: not a read of up to 1,024 records for every take.
            assertThat(read[0]).as("cold records read for 1,990 cold matches").isLessThan(10_000);
        }
    }

    @Test
    void browsingListsHeldAndColdTasksInDeliveryOrderWithoutHoldingThem() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "t", 25);
            q.enqueue(Task.of("high").withPriority(9));
            List<String> expected = new ArrayList<>(List.of("high"));
            expected.addAll(names("t", 25));
            assertThat(q.browse(100, null)).extracting(TaskWindowTest::text).containsExactlyElementsOf(expected);
            assertThat(q.browse(3, null)).extracting(TaskWindowTest::text).containsExactly("high", "t0", "t1");
            assertThat(q.browse(100, HeaderEquals.of("none", "x"))).isEmpty();
            assertThat(held(q)).isEqualTo(WINDOW);
        }
    }

    @Test
    void expiredTasksBeyondTheWindowAreNeverDelivered() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "keep", 10);
            for (int i = 0; i < 20; i++) {
                q.enqueue(Task.of("gone" + i).expiresAt(clock.wallAfter(Duration.ofSeconds(1))));
            }
            q.enqueue(Task.of("last"));
            clock.advance(Duration.ofSeconds(2));
            List<String> expected = new ArrayList<>(names("keep", 10));
            expected.add("last");
            assertThat(drain(q)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aTakeReadsOnPastColdTasksThatAllExpired() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "keep", 10);
            for (int i = 0; i < 100; i++) {
                q.enqueue(Task.of("gone" + i).expiresAt(clock.wallAfter(Duration.ofSeconds(1))));
            }
            q.enqueue(Task.of("last"));
            clock.advance(Duration.ofSeconds(2));
            List<LeasedTask> keep = q.dequeue(10, LEASE, Duration.ZERO, null);
            assertThat(keep).extracting(TaskWindowTest::text).containsExactlyElementsOf(names("keep", 10));
            assertThat(q.dequeue(5, LEASE, Duration.ZERO, null)).extracting(TaskWindowTest::text)
                    .containsExactly("last");
        }
    }

    @Test
    void tasksBeyondTheWindowGoToTheDeadLetterQueueWithTheirPayloads() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults().withMaxAttempts(1));
            enqueue(q, "t", 30);
            for (int i = 0; i < 30; i++) {
                assertThat(q.dequeue(1, Duration.ofSeconds(1), Duration.ZERO, null)).hasSize(1);
            }
            clock.advance(Duration.ofSeconds(2));
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
            assertThat(drain(q.deadLetters())).containsExactlyElementsOf(names("t", 30));
        }
    }

    @Test
    void purgeRemovesTheColdBacklogToo() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "t", 100);
            assertThat(q.purge()).isEqualTo(100);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
            enqueue(q, "u", 3);
            assertThat(drain(q)).containsExactlyElementsOf(names("u", 3));
        }
        try (Mikyu store = open()) {
            assertThat(store.taskQueue("jobs").counts()).isEqualTo(new TaskCounts(0, 0, 0));
        }
    }

    @Test
    void transactionalEnqueuesJoinTheColdBacklogInOrder() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "t", 15);
            try (Transaction tx = store.beginTransaction()) {
                for (int i = 15; i < 20; i++) {
                    tx.enqueue("jobs", Task.of("t" + i));
                }
                tx.commit();
            }
            enqueue(q, "u", 2);
            List<String> expected = new ArrayList<>(names("t", 20));
            expected.addAll(names("u", 2));
            assertThat(q.counts().ready()).isEqualTo(22);
            assertThat(drain(q)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aRestartWithALargeBacklogHoldsOnlyTheWindow() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "t", 200);
            List<LeasedTask> first = q.dequeue(3, LEASE, Duration.ZERO, null);
            q.ack(first.get(1).token());
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(held(q)).isLessThanOrEqualTo(WINDOW + 2);
            assertThat(q.counts()).isEqualTo(new TaskCounts(197, 0, 2));
            List<String> expected = new ArrayList<>(names("t", 200));
            expected.removeAll(List.of("t0", "t1", "t2"));
            assertThat(drain(q)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aReplayThatFindsAStateRecordOfAColdTaskAppliesIt() throws Exception {
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().taskWindow(0).timeSource(clock).build())) {
            // Without a window, live, 30 tasks are held and leased far into the backlog.
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            enqueue(q, "t", 40);
            List<LeasedTask> taken = q.dequeue(30, LEASE, Duration.ZERO, null);
            for (LeasedTask t : taken.subList(0, 25)) {
                q.ack(t.token());
            }
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts()).isEqualTo(new TaskCounts(10, 0, 5));
            assertThat(drain(q, 5)).containsExactlyElementsOf(names("t", 40).subList(30, 40));
            clock.advance(LEASE.plusSeconds(2));
            assertThat(drain(q)).containsExactlyElementsOf(names("t", 30).subList(25, 30));
        }
    }

    @Test
    void concurrentProducersAndConsumersSeeEveryTaskExactlyOnce() throws Exception {
        int producers = 4;
        int perProducer = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(producers + 2);
        ExecutorService continuations = Executors.newSingleThreadExecutor();
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            TaskQueueHandle handle = (TaskQueueHandle) q;
            List<Future<?>> producing = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                producing.add(pool.submit(() -> {
                    int i = 0;
                    while (i < perProducer) {
                        int n = Math.min(perProducer - i, 1 + (i % 7));
                        List<Task> batch = new ArrayList<>();
                        for (int k = 0; k < n; k++) {
                            batch.add(Task.of(producer + "-" + (i + k)).withPriority((i + k) % 3 == 0 ? 6 : 4));
                        }
                        if (producer % 2 == 0) {
                            q.enqueueBatch(batch);
                        } else {
                            java.util.concurrent.CompletableFuture<Long> done = new java.util.concurrent.CompletableFuture<>();
                            boolean started = handle.tryEnqueueAsync(batch, q.config().durability(), continuations,
                                    new io.mikyu.engine.spi.AsyncWrites.Completion() {
                                        @Override
                                        public void completed(long first) {
                                            done.complete(first);
                                        }

                                        @Override
                                        public void failed(RuntimeException cause) {
                                            done.completeExceptionally(cause);
                                        }
                                    });
                            if (started) {
                                done.get(1, TimeUnit.MINUTES);
                            } else {
                                q.enqueueBatch(batch); // paced: that needs a scheduler as its continuation
                            }
                        }
                        i += n;
                    }
                    return null;
                }));
            }
            Set<String> seen = ConcurrentHashMap.newKeySet();
            List<String> duplicates = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean producersRunning = new AtomicBoolean(true);
            List<Future<?>> consuming = new ArrayList<>();
            for (int c = 0; c < 2; c++) {
                consuming.add(pool.submit(() -> {
                    while (true) {
                        boolean last = !producersRunning.get();
                        List<LeasedTask> got = q.dequeue(5, LEASE, Duration.ofMillis(20), null);
                        for (LeasedTask t : got) {
                            if (!seen.add(text(t))) {
                                duplicates.add(text(t));
                            }
                            q.ack(t.token());
                        }
                        if (got.isEmpty() && last) {
                            return null;
                        }
                    }
                }));
            }
            for (Future<?> f : producing) {
                f.get(5, TimeUnit.MINUTES);
            }
            producersRunning.set(false);
            for (Future<?> f : consuming) {
                f.get(5, TimeUnit.MINUTES);
            }
            Set<String> expected = new HashSet<>();
            for (int p = 0; p < producers; p++) {
                for (int i = 0; i < perProducer; i++) {
                    expected.add(p + "-" + i);
                }
            }
            assertThat(duplicates).isEmpty();
            assertThat(seen).isEqualTo(expected);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
        } finally {
            pool.shutdownNow();
            continuations.shutdownNow();
        }
    }
}
