package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.task.TaskTesting.HeaderEquals;
import io.mikyu.engine.Headers;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.fast;
import static io.mikyu.engine.task.TaskTesting.payloads;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;

/** Counts follow a task through its states; purge removes what is not leased. Delays run on a test clock. */
@Timeout(30)
class PurgeAndCountsTest {

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    @Test
    void countsFollowATaskThroughItsLifecycle() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
            q.enqueue(Task.of("a"));
            q.enqueue(Task.of("b"));
            q.enqueue(Task.of("c").deliverAt(clock.wallAfter(Duration.ofMillis(300))));
            assertThat(q.counts()).isEqualTo(new TaskCounts(2, 1, 0));
            assertThat(q.counts().depth()).isEqualTo(3);

            LeasedTask a = takeNow(q, 1).get(0);
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 1, 1));
            q.nack(a.token(), Duration.ofMillis(300), "later");
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 2, 0));

            clock.advance(Duration.ofMillis(300));
            assertThat(q.counts()).isEqualTo(new TaskCounts(3, 0, 0));
            List<LeasedTask> all = takeNow(q, 10);
            assertThat(all).hasSize(3);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 3));
            q.ack(all.get(0).token());
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 2));
            q.ack(List.of(all.get(1).token(), all.get(2).token()));
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
        }
    }

    @Test
    void purgeRemovesReadyAndScheduledTasksButLeavesLeasedOnes() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("leased-1").withPriority(9));
            q.enqueue(Task.of("leased-2").withPriority(9));
            List<LeasedTask> leased = takeNow(q, 2);
            q.enqueue(Task.of("r1"));
            q.enqueue(Task.of("r2"));
            q.enqueue(Task.of("r3"));
            q.enqueue(Task.of("s1").deliverAt(clock.wallAfter(Duration.ofHours(1))));
            q.enqueue(Task.of("s2").deliverAt(clock.wallAfter(Duration.ofMillis(200))));
            assertThat(q.counts()).isEqualTo(new TaskCounts(3, 2, 2));

            assertThat(q.purge()).isEqualTo(5);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 2));
            assertThat(q.browse(10, null)).isEmpty();
            clock.advance(Duration.ofMillis(200));
            assertThat(takeNow(q, 10)).as("s2 is gone too").isEmpty();

            // the holders keep their leases: one finishes, one gives its task back
            q.ack(leased.get(0).token());
            q.nack(leased.get(1).token(), Duration.ZERO, "retry");
            assertThat(payloads(takeNow(q, 10))).containsExactly("leased-2");
            assertThat(q.purge()).isZero();
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));

            // the queue works on after a purge
            long id = q.enqueue(Task.of("new"));
            assertThat(id).isGreaterThan(leased.get(1).id());
            assertThat(payloads(takeNow(q, 10))).containsExactly("new");
        }
    }

    @Test
    void purgeAlsoEmptiesFilteredViews() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            HeaderEquals eu = new HeaderEquals("region", "eu");
            for (int i = 0; i < 4; i++) {
                q.enqueue(Task.of("eu-" + i).withHeaders(Headers.of("region", "eu")));
            }
            assertThat(q.dequeue(1, LONG_LEASE, Duration.ZERO, eu)).hasSize(1);
            assertThat(q.purge()).isEqualTo(3);
            assertThat(q.dequeue(10, LONG_LEASE, Duration.ZERO, eu)).isEmpty();
            assertThat(q.browse(10, eu)).isEmpty();
        }
    }

    @Test
    void aPurgeIsDurable() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 10; i++) {
                q.enqueue(Task.of("t" + i));
            }
            assertThat(q.purge()).isEqualTo(10);
            q.enqueue(Task.of("kept"));
        }
        try (Mikyu store = open()) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(q.counts()).isEqualTo(new TaskCounts(1, 0, 0));
            assertThat(payloads(takeNow(q, 20))).containsExactly("kept");
        }
    }
}
