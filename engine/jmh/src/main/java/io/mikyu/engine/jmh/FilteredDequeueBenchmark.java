package io.mikyu.engine.jmh;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.TaskView;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Filtered against unfiltered dequeue on a task queue holding 100,000 ready tasks, 10 % of which match the
 * filter (the goal: filtered ≥ 0.2 × unfiltered). Each operation dequeues one task, acks it, and enqueues a
 * replacement of the same colour, so the queue keeps its size and match rate through the run. The filter is one
 * object reused across calls, as a JMS consumer's compiled selector is, so the queue's per-filter index applies.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FilteredDequeueBenchmark {

    private static final int TASKS = 100_000;

    /** Matches tasks whose {@code colour} header is red; equal filters are equal, as compiled selectors are. */
    record ColourIs(String colour) implements TaskFilter {
        @Override
        public boolean matches(TaskView task) {
            return colour.equals(task.headers().getString("colour"));
        }
    }

    @Param({"true", "false"})
    public boolean filtered;

    private Path dir;
    private Mikyu store;
    private TaskQueue queue;
    private final TaskFilter red = new ColourIs("red");
    private final byte[] payload = new byte[Fixtures.PAYLOAD_BYTES];
    private final Headers redHeaders = Headers.of("colour", "red");
    private final Headers blueHeaders = Headers.of("colour", "blue");

    @Setup(Level.Trial)
    public void fill() {
        dir = Fixtures.tempDir("mikyu-jmh-filter");
        store = Mikyu.open(dir, EngineConfig.builder().housekeepingInterval(Duration.ofHours(1)).build());
        queue = store.createTaskQueue("jobs", TaskQueueConfig.defaults().withDurability(Durability.ASYNC));
        List<Task> batch = new ArrayList<>(1000);
        for (int i = 0; i < TASKS; i++) {
            batch.add(Task.of(payload).withHeaders(i % 10 == 0 ? redHeaders : blueHeaders));
            if (batch.size() == 1000) {
                queue.enqueueBatch(batch);
                batch.clear();
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        store.close();
        Fixtures.deleteRecursively(dir);
    }

    @Benchmark
    public long dequeueAckReplace() throws InterruptedException {
        List<LeasedTask> tasks = queue.dequeue(1, Duration.ofMinutes(5), Duration.ZERO, filtered ? red : null);
        LeasedTask t = tasks.get(0);
        queue.ack(t.token());
        queue.enqueue(Task.of(payload).withHeaders(t.headers()));
        return t.id();
    }
}
