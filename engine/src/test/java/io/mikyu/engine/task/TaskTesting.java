package io.mikyu.engine.task;

import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.TaskView;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Shared helpers of the task-queue specification tests: fast configs, taking what is ready, filters. */
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

    /** Real time since {@code startNanos}, for a long poll's wait, which is real time by design. */
    static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
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
