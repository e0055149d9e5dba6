package io.mikyu.engine.recovery;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.files.PowerLossFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Creating a queue writes its settings and first segments into a hidden folder, fsyncs them and the folder, then
 * renames it into place and fsyncs the parent. Whatever write or fsync the power goes at, the store opens
 * afterwards with each queue either absent or whole (it opens and works), and a create that returned is there:
 * fewer fsyncs per create must not leave a queue that fails to open.
 */
@Timeout(180)
class CreatePowerLossTest {

    @TempDir
    Path tmp;

    /** Which creates returned before the power went. */
    private record Run(long events, boolean taskCreated, boolean logCreated, boolean groupCreated) {
    }

    @Test
    void atEveryCutEachQueueIsAbsentOrWholeAndEveryReturnedCreateIsThere() throws Exception {
        Run uncut = run(tmp.resolve("uncut"), 0);
        assertThat(uncut.groupCreated()).isTrue();
        assertThat(uncut.events()).as("writes and fsyncs of the three creates").isGreaterThan(5);
        for (long cut = 1; cut <= uncut.events() + 1; cut++) {
            Path dir = tmp.resolve("cut-" + cut);
            Run run = run(dir, cut);
            verify(dir.resolve("after"), run, "cut at event " + cut + " of " + uncut.events() + ", " + run);
        }
    }

    private Run run(Path dir, long cut) throws Exception {
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        boolean task = false;
        boolean log = false;
        boolean group = false;
        long events;
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, dir.resolve("durable"))) {
            Mikyu store = Mikyu.open(data);
            long before = disk.events();
            if (cut > 0) {
                disk.cutAtEvent(cut);
            }
            try {
                store.createTaskQueue("jobs", TaskQueueConfig.defaults());
                task = true;
                LogQueue events1 = store.createLog("events", LogQueueConfig.defaults());
                log = true;
                events1.group("sub");
                group = true;
            } catch (RuntimeException powerGone) {
                assertThat(disk.isCut()).as("a create failed with the power on: " + powerGone).isTrue();
            }
            events = disk.events() - before;
            disk.cut();
            try {
                store.close();
            } catch (RuntimeException expectedOnADeadDisk) {
                // nothing it writes now reaches the disk
            }
            disk.materialize(dir.resolve("after"));
        }
        return new Run(events, task, log, group);
    }

    private static void verify(Path after, Run run, String what) throws Exception {
        try (Mikyu store = Mikyu.open(after)) {
            assertThat(store.recoveryReport().events()).as(what)
                    .noneMatch(e -> e.kind() == RecoveryReport.Kind.QUEUE_QUARANTINED
                            || e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED);
            boolean jobs = store.list(QueueKind.TASK).contains("jobs");
            assertThat(jobs || !run.taskCreated()).as(what + ": the task queue whose create returned").isTrue();
            if (jobs) {
                assertThat(store.list(QueueKind.TASK)).as(what).contains("jobs" + TaskQueue.DEAD_LETTER_SUFFIX);
                TaskQueue q = store.taskQueue("jobs");
                q.enqueue(Task.of("work"));
                assertThat(q.dequeue(Duration.ZERO).payloadAsString()).as(what).isEqualTo("work");
            }
            boolean events = store.list(QueueKind.LOG).contains("events");
            assertThat(events || !run.logCreated()).as(what + ": the log queue whose create returned").isTrue();
            if (events) {
                LogQueue q = store.log("events");
                assertThat(q.groups().contains("sub") || !run.groupCreated())
                        .as(what + ": the consumer group whose create returned").isTrue();
                long at = q.append(Entry.of("one"));
                assertThat(q.read(at, 1)).extracting(r -> r.payloadAsString()).as(what).containsExactly("one");
            }
        }
    }
}
