package io.mikyu.engine.crash;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process creating queues from several threads at once (so creates share the fsync that publishes their
 * folders) is killed with SIGKILL: every create that returned is there after the reopen, and every queue there
 * opens and works; a create cut midway is absent or complete, never a queue that fails to open.
 */
@Timeout(180)
class CreateSigkillTest {

    /** Generous: a child's fsynced creates crawl on a loaded machine; a passing run never waits this long. */
    private static final Duration CREATE_WAIT = Duration.ofSeconds(90);

    @TempDir
    Path tmp;

    @Test
    void everyQueueWhoseCreateReturnedSurvivesSigkillAndEveryQueueFoundOpens() throws Exception {
        Path dir = tmp.resolve("data");
        List<String> lines;
        try (ChildProcess child = ChildProcess.start(tmp, CrashingCreator.class, Map.of(), dir.toString(), "8")) {
            child.awaitLines(l -> l.startsWith("LOG "), 60, CREATE_WAIT);
            child.sigkill();
            lines = child.lines();
        }
        List<String> tasksCreated = names(lines, "TASK ");
        List<String> logsCreated = names(lines, "LOG ");
        assertThat(logsCreated).hasSizeGreaterThanOrEqualTo(60);

        try (Mikyu store = Mikyu.open(dir)) {
            assertThat(store.list(QueueKind.TASK)).as("task queues after SIGKILL")
                    .containsAll(tasksCreated)
                    .containsAll(tasksCreated.stream().map(n -> n + TaskQueue.DEAD_LETTER_SUFFIX).toList());
            assertThat(store.list(QueueKind.LOG)).as("log queues after SIGKILL").containsAll(logsCreated);
            for (String name : logsCreated) {
                assertThat(store.log(name).groups()).as("groups of %s", name).containsExactly("sub");
            }
            // every queue found, whether its create returned or was cut by the kill, opens and works
            for (String name : store.list(QueueKind.TASK)) {
                if (!name.endsWith(TaskQueue.DEAD_LETTER_SUFFIX)) {
                    TaskQueue q = store.taskQueue(name);
                    q.enqueue(Task.of("after " + name));
                    assertThat(q.dequeue(Duration.ZERO).payloadAsString()).isEqualTo("after " + name);
                }
            }
            for (String name : store.list(QueueKind.LOG)) {
                LogQueue q = store.log(name);
                long at = q.append(Entry.of("after " + name));
                assertThat(q.read(at, 1)).extracting(r -> r.payloadAsString()).containsExactly("after " + name);
            }
            assertThat(store.recoveryReport().events()).as("recovery after SIGKILL mid-create")
                    .noneMatch(e -> e.kind() == RecoveryReport.Kind.QUEUE_QUARANTINED
                            || e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED);
        }
        try (Stream<Path> left = Stream.concat(Files.list(dir.resolve("task")), Files.list(dir.resolve("log")))) {
            assertThat(left.map(p -> p.getFileName().toString())).as("leftovers of creates cut by the kill")
                    .noneMatch(n -> n.startsWith("."));
        }
    }

    private static List<String> names(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix))
                .map(l -> l.split(" ")[1]).toList();
    }
}
