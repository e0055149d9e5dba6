package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.support.ChildProcess;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.support.Payloads;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real process enqueues (or acks) and is killed with SIGKILL mid-stream: every enqueue it was told is stored is
 * there after reopening, and every ack it was told is stored keeps its task finished.
 */
@Timeout(180)
class TaskSigkillTest {

    /** Generous: a child's fsynced enqueues crawl on a loaded machine; a passing run never waits this long. */
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    @Test
    void everyAcknowledgedSyncEnqueueSurvivesSigkill() throws Exception {
        Path dir = tmp.resolve("data");
        List<String> lines;
        try (ChildProcess child = ChildProcess.start(tmp, CrashingTaskWorker.class, java.util.Map.of(), "enqueue", dir.toString(), "threads=4")) {
            child.awaitLines(l -> l.startsWith("ENQ "), 1500, WAIT);
            child.sigkill();
            lines = child.lines();
        }
        Map<Long, Payloads.Identity> acknowledged = new TreeMap<>();
        for (String l : lines) {
            if (l.startsWith("ENQ ")) {
                String[] f = l.split(" ");
                Payloads.Identity id = new Payloads.Identity(Integer.parseInt(f[1]), Long.parseLong(f[2]));
                assertThat(acknowledged.put(Long.parseLong(f[3]), id)).as("id %s returned twice", f[3]).isNull();
            }
        }
        assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(1500);

        try (Mikyu store = Mikyu.open(dir)) {
            assertThat(store.recoveryReport().events()).as("recovery after SIGKILL")
                    .noneMatch(e -> e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED);
            TaskQueue q = store.taskQueue(CrashingTaskWorker.QUEUE);
            long depth = q.counts().depth();
            assertThat(q.counts().ready()).as("all stored tasks are ready").isEqualTo(depth);
            assertThat(depth).isGreaterThanOrEqualTo(acknowledged.size());

            Map<Long, Payloads.Identity> stored = new HashMap<>();
            Map<Integer, List<Long>> seqs = new HashMap<>();
            while (true) {
                List<LeasedTask> got = q.dequeue(1000, Duration.ofMinutes(5), Duration.ZERO, null);
                if (got.isEmpty()) {
                    break;
                }
                for (LeasedTask t : got) {
                    Payloads.Identity id = Payloads.decode(t.payload());
                    assertThat(t.headers().getString("producer")).isEqualTo(String.valueOf(id.producer()));
                    assertThat(t.priority()).isEqualTo((int) (id.seq() % 10));
                    assertThat(t.attempt()).isEqualTo(1);
                    assertThat(stored.put(t.id(), id)).as("task %d delivered twice", t.id()).isNull();
                    seqs.computeIfAbsent(id.producer(), p -> new ArrayList<>()).add(id.seq());
                }
            }
            assertThat((long) stored.size()).isEqualTo(depth);
            for (Map.Entry<Long, Payloads.Identity> e : acknowledged.entrySet()) {
                assertThat(stored.get(e.getKey())).as("acknowledged task %d", e.getKey()).isEqualTo(e.getValue());
            }
            // each producer enqueued one after another: what is stored is a prefix, without gaps or duplicates
            for (Map.Entry<Integer, List<Long>> e : seqs.entrySet()) {
                List<Long> s = new ArrayList<>(e.getValue());
                s.sort(Long::compare);
                for (int i = 0; i < s.size(); i++) {
                    assertThat(s.get(i)).as("seq %d of producer %d", i, e.getKey()).isEqualTo(i);
                }
            }
            long maxId = stored.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
            assertThat(q.enqueue(Task.of("after the crash"))).isGreaterThan(maxId);
        }
    }

    @Test
    void acknowledgedAcksSurviveSigkillAndUnackedTasksComeBack() throws Exception {
        Path dir = tmp.resolve("data");
        int total = 3000;
        Map<Long, Payloads.Identity> all = new HashMap<>();
        try (Mikyu store = Mikyu.open(dir)) {
            TaskQueue q = store.createTaskQueue(CrashingTaskWorker.QUEUE, CrashingTaskWorker.CONFIG);
            List<Task> batch = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                batch.add(Task.of(Payloads.encode(9, i)));
            }
            long first = q.enqueueBatch(batch);
            for (int i = 0; i < total; i++) {
                all.put(first + i, new Payloads.Identity(9, i));
            }
        }
        List<String> lines;
        try (ChildProcess child = ChildProcess.start(tmp, CrashingTaskWorker.class, java.util.Map.of(), "work", dir.toString(), "threads=2")) {
            child.awaitLines(l -> l.startsWith("ACKED "), 800, WAIT);
            child.sigkill();
            lines = child.lines();
        }
        Set<Long> acked = new HashSet<>();
        for (String l : lines) {
            if (l.startsWith("ACKED ")) {
                long id = Long.parseLong(l.split(" ")[1]);
                assertThat(acked.add(id)).as("task %d acked twice: handed out twice without fencing", id).isTrue();
            }
        }
        assertThat(all.keySet()).containsAll(acked);

        // tasks the dead worker held come back when its (1 s) leases run out: reopened on a clock an hour later
        SteppableTimeSource anHourLater = new SteppableTimeSource(System.currentTimeMillis()
                + Duration.ofHours(1).toMillis());
        try (Mikyu store = Mikyu.open(dir, EngineConfig.builder().timeSource(anHourLater).build())) {
            assertThat(store.recoveryReport().events())
                    .noneMatch(e -> e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED);
            TaskQueue q = store.taskQueue(CrashingTaskWorker.QUEUE);
            Set<Long> remaining = new HashSet<>();
            List<LeasedTask> got;
            while (!(got = q.dequeue(1000, Duration.ofMinutes(5), Duration.ZERO, null)).isEmpty()) {
                for (LeasedTask t : got) {
                    assertThat(Payloads.decode(t.payload())).isEqualTo(all.get(t.id()));
                    assertThat(remaining.add(t.id())).as("task %d delivered twice", t.id()).isTrue();
                    assertThat(acked).as("an acked task came back").doesNotContain(t.id());
                    q.ack(t.token());
                }
            }
            assertThat(q.counts().depth()).as("everything drained").isZero();
            Set<Long> lost = new HashSet<>(all.keySet());
            lost.removeAll(remaining);
            lost.removeAll(acked);
            // an ack may have been durable without its line being printed before the kill: at most one batch per
            // worker thread
            assertThat(lost).as("tasks neither acked (printed) nor still in the queue").hasSizeLessThanOrEqualTo(6);
        }
        try (Mikyu store = Mikyu.open(dir)) {
            assertThat(store.taskQueue(CrashingTaskWorker.QUEUE).counts().depth()).isZero();
        }
    }
}
