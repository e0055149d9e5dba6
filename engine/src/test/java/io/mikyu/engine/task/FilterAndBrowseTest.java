package io.mikyu.engine.task;

import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskView;
import io.mikyu.engine.task.TaskTesting.HeaderEquals;
import io.mikyu.engine.support.BackgroundCall;
import io.mikyu.engine.task.TaskTesting.MinPriority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.fast;
import static io.mikyu.engine.task.TaskTesting.millisSince;
import static io.mikyu.engine.task.TaskTesting.payloads;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;

/** Filtered dequeue takes only matching tasks and leaves the others; browse peeks without taking. */
@Timeout(30)
class FilterAndBrowseTest {

    private static final TaskFilter EU = new HeaderEquals("region", "eu");
    private static final TaskFilter US = new HeaderEquals("region", "us");

    @TempDir
    Path data;

    private static void enqueueRegions(TaskQueue q, int n) {
        for (int i = 0; i < n; i++) {
            String region = i % 3 == 0 ? "eu" : "us";
            q.enqueue(Task.of(region + "-" + i).withHeaders(Headers.of("region", region, "n", String.valueOf(i))));
        }
    }

    private static List<LeasedTask> take(TaskQueue q, int max, TaskFilter filter) throws InterruptedException {
        return q.dequeue(max, LONG_LEASE, Duration.ZERO, filter);
    }

    @Test
    void aFilteredDequeueReturnsOnlyMatchingTasksInOrder() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            enqueueRegions(q, 12);
            assertThat(payloads(take(q, 2, EU))).containsExactly("eu-0", "eu-3");
            assertThat(payloads(take(q, 10, new HeaderEquals("region", "eu")))).as("an equal filter")
                    .containsExactly("eu-6", "eu-9");
            assertThat(take(q, 10, EU)).as("no more matches").isEmpty();
            assertThat(q.counts()).isEqualTo(new TaskCounts(8, 0, 4));
        }
    }

    @Test
    void nonMatchingTasksStayForAnUnfilteredConsumerInOrder() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            enqueueRegions(q, 9);
            assertThat(take(q, 10, EU)).hasSize(3);
            assertThat(payloads(take(q, 10, null))).containsExactly("us-1", "us-2", "us-4", "us-5", "us-7", "us-8");
        }
    }

    @Test
    void aFilterThatMatchesNothingTakesNothing() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            enqueueRegions(q, 6);
            long start = System.nanoTime();
            assertThat(q.dequeue(5, LONG_LEASE, Duration.ofMillis(300), new HeaderEquals("region", "apac")))
                    .isEmpty();
            assertThat(millisSince(start)).as("waited for a match").isGreaterThanOrEqualTo(250);
            assertThat(q.counts()).isEqualTo(new TaskCounts(6, 0, 0));
        }
    }

    @Test
    void aTaskTakenByAnUnfilteredConsumerIsNotHandedToAFilteredOneToo() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            enqueueRegions(q, 9); // eu-0, eu-3, eu-6
            assertThat(payloads(take(q, 1, EU))).containsExactly("eu-0"); // the filter is now in use
            List<LeasedTask> all = take(q, 100, null);
            assertThat(payloads(all)).contains("eu-3", "eu-6").hasSize(8);
            assertThat(take(q, 10, EU)).as("already taken by the unfiltered consumer").isEmpty();
            q.enqueue(Task.of("eu-late").withHeaders(Headers.of("region", "eu")));
            assertThat(payloads(take(q, 10, EU))).containsExactly("eu-late");
        }
    }

    @Test
    void aTaskTakenByOneFilterIsNotHandedToAnOverlappingFilter() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 10; i++) {
                q.enqueue(Task.of("t" + i).withPriority(i % 2 == 0 ? 8 : 2)
                        .withHeaders(Headers.of("region", i < 5 ? "eu" : "us")));
            }
            // warm both filters, then interleave
            List<LeasedTask> seen = new ArrayList<>();
            seen.addAll(take(q, 1, EU));
            seen.addAll(take(q, 1, new MinPriority(5)));
            for (int round = 0; round < 10; round++) {
                seen.addAll(take(q, 1, EU));
                seen.addAll(take(q, 1, new MinPriority(5)));
                seen.addAll(take(q, 1, US));
            }
            assertThat(seen).extracting(LeasedTask::id).doesNotHaveDuplicates().hasSize(10);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 10));
        }
    }

    @Test
    void filtersCanUsePriority() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int p = 0; p <= 9; p++) {
                q.enqueue(Task.of("p" + p).withPriority(p));
            }
            assertThat(take(q, 100, new MinPriority(7))).extracting(LeasedTask::priority).containsExactly(9, 8, 7);
            assertThat(take(q, 100, null)).extracting(LeasedTask::priority)
                    .containsExactly(6, 5, 4, 3, 2, 1, 0);
        }
    }

    @Test
    void aFilteredDequeueFollowsPriorityThenFifoAmongMatches() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("eu-low").withPriority(1).withHeaders(Headers.of("region", "eu")));
            q.enqueue(Task.of("us-high").withPriority(9).withHeaders(Headers.of("region", "us")));
            q.enqueue(Task.of("eu-high-1").withPriority(8).withHeaders(Headers.of("region", "eu")));
            q.enqueue(Task.of("eu-high-2").withPriority(8).withHeaders(Headers.of("region", "eu")));
            assertThat(payloads(take(q, 10, EU))).containsExactly("eu-high-1", "eu-high-2", "eu-low");
        }
    }

    @Test
    void aNackedTaskMatchesItsFilterAgain() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            enqueueRegions(q, 3);
            LeasedTask eu = take(q, 1, EU).get(0);
            q.nack(eu.token(), Duration.ZERO, "retry");
            LeasedTask again = take(q, 1, EU).get(0);
            assertThat(again.id()).isEqualTo(eu.id());
            assertThat(again.attempt()).isEqualTo(2);
        }
    }

    @Test
    void filtersSeeAttempts() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("a"));
            q.enqueue(Task.of("b"));
            LeasedTask a = takeNow(q, 1).get(0);
            q.nack(a.token(), Duration.ZERO, "retry");
            record Retried() implements TaskFilter {
                @Override
                public boolean matches(TaskView task) {
                    return task.attempts() >= 1;
                }
            }
            assertThat(payloads(take(q, 10, new Retried()))).containsExactly("a");
        }
    }

    @Test
    void aFilteredLongPollWakesForAMatchOnlyAndLeavesOthers() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            // its wait is far longer than the test may take: returning proves it was woken
            try (BackgroundCall<List<LeasedTask>> waiting = BackgroundCall.start("consumer",
                    () -> q.dequeue(1, LONG_LEASE, Duration.ofMinutes(10), EU)).awaitTimedWaiting()) {
                q.enqueue(Task.of("us-1").withHeaders(Headers.of("region", "us")));
                assertThat(waiting.isDone()).as("a non-matching task does not satisfy the filtered consumer")
                        .isFalse();
                q.enqueue(Task.of("eu-1").withHeaders(Headers.of("region", "eu")));
                assertThat(payloads(waiting.get())).as("woken by the match, which is all it took")
                        .containsExactly("eu-1");
                assertThat(payloads(take(q, 10, null))).containsExactly("us-1");
            }
        }
    }

    @Test
    void browsingIsNonDestructiveAndInDeliveryOrder() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("a").withPriority(2));
            q.enqueue(Task.of("b").withPriority(7));
            q.enqueue(Task.of("c").withPriority(2));
            q.enqueue(Task.of("d").withPriority(7));
            q.enqueue(Task.of("later").withDelay(Duration.ofHours(1)));
            q.enqueue(Task.of("leased").withPriority(9));
            LeasedTask leased = takeNow(q, 1).get(0);
            assertThat(leased.payloadAsString()).isEqualTo("leased");

            List<LeasedTask> browsed = q.browse(100, null);
            assertThat(payloads(browsed)).containsExactly("b", "d", "a", "c");
            assertThat(payloads(q.browse(2, null))).containsExactly("b", "d");
            assertThat(payloads(q.browse(100, null))).as("browsing twice shows the same")
                    .containsExactly("b", "d", "a", "c");
            assertThat(q.counts()).isEqualTo(new TaskCounts(4, 1, 1));

            List<LeasedTask> taken = takeNow(q, 100);
            assertThat(payloads(taken)).containsExactly("b", "d", "a", "c");
            assertThat(taken).allSatisfy(t -> assertThat(t.attempt()).isEqualTo(1));
            assertThat(ids(browsed)).isEqualTo(ids(taken));
            assertThat(q.browse(100, null)).isEmpty();
        }
    }

    private static List<Long> ids(List<LeasedTask> tasks) {
        return TaskTesting.ids(tasks);
    }

    @Test
    void browsingWithAFilterShowsOnlyMatchesAndTakesNothing() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            enqueueRegions(q, 9);
            LeasedTask t = q.browse(1, EU).get(0);
            assertThat(t.payloadAsString()).isEqualTo("eu-0");
            assertThat(t.headers().getString("n")).isEqualTo("0");
            assertThat(payloads(q.browse(100, EU))).containsExactly("eu-0", "eu-3", "eu-6");
            assertThat(payloads(q.browse(100, US))).containsExactly("us-1", "us-2", "us-4", "us-5", "us-7", "us-8");
            assertThat(q.counts()).isEqualTo(new TaskCounts(9, 0, 0));
            assertThat(payloads(take(q, 1, EU))).containsExactly("eu-0");
            assertThat(payloads(q.browse(100, EU))).containsExactly("eu-3", "eu-6");
        }
    }

    /** Counts its evaluations; equal (same counter) instances are the same filter to the queue. */
    record CountingRegion(String region, AtomicLong evaluations) implements TaskFilter {
        @Override
        public boolean matches(TaskView task) {
            evaluations.incrementAndGet();
            return region.equals(task.headers().getString("region"));
        }
    }

    @Test
    void aFilteredDequeueDoesNotScanTheQueueOnEveryCall() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            List<Task> batch = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                batch.add(Task.of("bulk").withHeaders(Headers.of("region", "us")));
            }
            q.enqueueBatch(batch);
            for (int i = 0; i < 300; i++) {
                q.enqueue(Task.of("eu-" + i).withHeaders(Headers.of("region", "eu")));
            }
            AtomicLong evaluations = new AtomicLong();
            CountingRegion eu = new CountingRegion("eu", evaluations);
            assertThat(payloads(take(q, 1, eu))).containsExactly("eu-0"); // the first use may build an index
            long afterFirst = evaluations.get();
            List<String> got = new ArrayList<>();
            for (int i = 0; i < 299; i++) {
                got.addAll(payloads(take(q, 1, eu)));
            }
            long perCall = (evaluations.get() - afterFirst) / 299;
            assertThat(got).hasSize(299).startsWith("eu-1", "eu-2").endsWith("eu-299");
            assertThat(perCall).as("filter evaluations per filtered dequeue once the filter is known "
                    + "(a scan would be about 20 000)").isLessThan(100);
            // the 20 000 others are untouched, in order, for an unfiltered consumer
            assertThat(q.counts()).isEqualTo(new TaskCounts(20_000, 0, 300));
        }
    }
}
