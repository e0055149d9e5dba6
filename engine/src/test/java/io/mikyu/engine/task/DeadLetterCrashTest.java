package io.mikyu.engine.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.ChildProcess;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A move to the dead-letter queue is one atomic step: a child JVM nacks a message for the last time and halts
 * inside the move (at a fault-injection point of the transaction manager: right after the move's COMMIT record is
 * durable, or after its first write, the copy in the dead-letter queue, is); after reopening, the message is in the
 * dead-letter queue exactly once and gone from its queue, also once its old lease has ended.
 */
@Timeout(90)
class DeadLetterCrashTest {

    private static final Duration STARTUP = Duration.ofSeconds(30);

    @TempDir
    Path work;

    static SharedGroupConfig sharedConfig(String durability) {
        return new SharedGroupConfig(100, taskConfig(durability));
    }

    private static TaskQueueConfig taskConfig(String durability) {
        return TaskQueueConfig.defaults().withMaxAttempts(1).withDurability(Durability.parse(durability));
    }

    @ParameterizedTest(name = "{0} queue, {1}, halted {2}")
    @CsvSource({
            "task, async, after-first-write",
            "task, sync, after-first-write",
            "shared, async, after-first-write",
            "task, async, after-commit-record",
            "shared, sync, after-commit-record"})
    void aMoveCutByACrashIsCompletedOnceByRecovery(String kind, String durability, String crashPoint)
            throws Exception {
        Path store = work.resolve("store");
        try (Mikyu s = Mikyu.open(store)) {
            if (kind.equals("task")) {
                s.createTaskQueue("jobs", taskConfig(durability)).enqueue(Task.of("doomed"));
            } else {
                s.createLog("src", LogQueueConfig.defaults().withDurability(Durability.parse(durability)))
                        .sharedGroup("sg", sharedConfig(durability));
                s.log("src").append(Entry.of("doomed"));
            }
        }
        try (ChildProcess c = ChildProcess.start(work, DeadLetterChild.class,
                Map.of("mikyu.test.txnCrashPoint", crashPoint), store.toString(), kind, durability)) {
            assertThat(c.waitForExit(STARTUP)).as("halted inside the move; lines %s, stderr:\n%s", c.lines(),
                    c.stderrText()).isEqualTo(137);
            assertThat(c.lines()).contains("NACKING").doesNotContain("MOVED");
        }
        for (int reopen = 0; reopen < 2; reopen++) {
            try (Mikyu s = Mikyu.open(store)) {
                TaskQueue source = kind.equals("task") ? s.taskQueue("jobs") : null;
                SharedGroupTarget target = kind.equals("task") ? null
                        : new SharedGroupTarget(s.log("src").sharedGroup("sg", sharedConfig(durability)));
                TaskQueue dlq = kind.equals("task") ? source.deadLetters() : target.group.deadLetters();
                // If the crash left the task leased, the child's lease (real time, in another process) ends
                // first; then the move is finished. Wait for the queue to settle.
                int round = reopen;
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(remaining(source, target))
                        .as("gone from its queue (reopen %d)", round).isZero());
                List<LeasedTask> dead = dlq.browse(10, null);
                assertThat(dead).as("in the dead-letter queue exactly once (reopen %d)", reopen)
                        .extracting(LeasedTask::payloadAsString).containsExactly("doomed");
                assertThat(dead.get(0).headers().getString(TaskQueue.DLQ_REASON)).isEqualTo("given up");
                assertThat(dlq.counts().depth()).isEqualTo(1);
            }
        }
    }

    private record SharedGroupTarget(io.mikyu.engine.SharedGroup group) {
    }

    /** Messages still in the source: tasks of {@code jobs}, or the group's records not finished. */
    private static long remaining(TaskQueue source, SharedGroupTarget target) {
        return source != null ? source.counts().depth() : target.group.counts().depth();
    }
}
