package io.mikyu.engine.task;

import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.TaskView;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Shared helpers of the task-queue specification tests: fast configs, polling, filters. */
final class TaskTesting {

    /** Long enough that nothing expires during a test that does not mean it to. */
    static final Duration LONG_LEASE = Duration.ofSeconds(60);

    private TaskTesting() {
    }

    /** Backoff 50 ms doubling up to 400 ms, 60 s leases, 5 attempts: tests that do not time leases. */
    static TaskQueueConfig fast() {
        return TaskQueueConfig.defaults()
                .withBackoff(Duration.ofMillis(50), 2.0, Duration.ofMillis(400))
                .withDefaultLease(LONG_LEASE)
                .withMaxAttempts(5);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String text(LeasedTask t) {
        return t.payloadAsString();
    }

    /** Takes what is ready now, one call, without waiting. */
    static List<LeasedTask> takeNow(TaskQueue q, int max) throws InterruptedException {
        return q.dequeue(max, LONG_LEASE, Duration.ZERO, null);
    }

    /** The next task, dequeued in short slices so the time it is observed does not depend on long-poll wake-ups. */
    static LeasedTask poll(TaskQueue q, Duration lease, TaskFilter filter, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            List<LeasedTask> got = q.dequeue(1, lease, Duration.ofMillis(10), filter);
            if (!got.isEmpty()) {
                return got.get(0);
            }
        } while (System.nanoTime() < deadline);
        return null;
    }

    static LeasedTask poll(TaskQueue q, Duration timeout) throws InterruptedException {
        return poll(q, LONG_LEASE, null, timeout);
    }

    /** Dequeues (and acks) everything that becomes ready within {@code quiet} of the last task seen. */
    static List<LeasedTask> drainAndAck(TaskQueue q, Duration quiet) throws InterruptedException {
        List<LeasedTask> out = new ArrayList<>();
        while (true) {
            List<LeasedTask> got = q.dequeue(100, LONG_LEASE, quiet, null);
            if (got.isEmpty()) {
                return out;
            }
            for (LeasedTask t : got) {
                q.ack(t.token());
            }
            out.addAll(got);
        }
    }

    static List<String> payloads(List<LeasedTask> tasks) {
        return tasks.stream().map(LeasedTask::payloadAsString).toList();
    }

    static List<Long> ids(List<LeasedTask> tasks) {
        return tasks.stream().map(LeasedTask::id).toList();
    }

    static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /** Waits until the counts satisfy {@code condition} (a background promoter may take a moment). */
    static TaskCounts awaitCounts(TaskQueue q, Predicate<TaskCounts> condition, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        TaskCounts c = q.counts();
        while (!condition.test(c) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            c = q.counts();
        }
        return c;
    }

    static void awaitTrue(Supplier<Boolean> condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.get()) {
            assertThat(System.nanoTime() < deadline).as("timed out waiting for: " + what).isTrue();
            Thread.sleep(10);
        }
    }

    /** A filter that compares a header with a value; equal filters share the queue's per-filter index. */
    record HeaderEquals(String name, String value) implements TaskFilter {
        @Override
        public boolean matches(TaskView task) {
            return value.equals(task.headers().getString(name));
        }
    }

    /** Tasks of at least this priority. */
    record MinPriority(int min) implements TaskFilter {
        @Override
        public boolean matches(TaskView task) {
            return task.priority() >= min;
        }
    }

    static Headers headers(String... namesAndValues) {
        return Headers.of(namesAndValues);
    }
}
