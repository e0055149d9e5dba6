package io.mikyu.engine.txn;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mikyu.engine.txn.TxnFixture.LONG_LEASE;
import static io.mikyu.engine.txn.TxnFixture.taskConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What deciding a prepared branch costs the writer: its COMMIT record and its queue writes go in one cycle with one
 * fsync (the transaction log's), and what it enqueued can be taken as soon as the commit returns.
 */
@Timeout(60)
class CommitPreparedCostTest {

    @TempDir
    Path data;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    /** The flusher idle for the test's length: every fsync counted is the writer's. */
    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().flushInterval(Duration.ofHours(1))
                .housekeepingInterval(Duration.ofHours(1)).meterRegistry(meters).build());
    }

    private long cycles() {
        return (long) meters.get("mikyu.engine.commits").functionCounter().count();
    }

    private long syncCycles() {
        return meters.get("mikyu.engine.fsync.latency").timer().count();
    }

    @Test
    void aPreparedBranchThatSendsCommitsInOneWriterCycleAndItsMessageIsAtOnceTaken() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue out = store.createTaskQueue("out", taskConfig());
            byte[] xid = "send".getBytes(StandardCharsets.UTF_8);
            store.beginTransaction().enqueue("out", Task.of("m1")).enqueue("out", Task.of("m2")).prepare(xid);
            long cyclesBefore = cycles();
            long syncBefore = syncCycles();

            store.commitPrepared(xid);

            assertThat(cycles() - cyclesBefore).as("writer cycles the commit waited for").isEqualTo(1);
            assertThat(syncCycles() - syncBefore).as("fsyncing cycles").isEqualTo(1);
            List<LeasedTask> taken = out.dequeue(2, LONG_LEASE, Duration.ZERO, null);
            assertThat(taken).as("taken right after the commit returned, without waiting")
                    .extracting(LeasedTask::payloadAsString).containsExactly("m1", "m2");
            assertThat(store.preparedTransactions()).isEmpty();
        }
    }

    @Test
    void aPreparedBranchThatConsumesAndSendsCommitsInOneWriterCycle() throws Exception {
        try (Mikyu store = open()) {
            TaskQueue jobs = store.createTaskQueue("jobs", taskConfig());
            TaskQueue out = store.createTaskQueue("out", taskConfig());
            jobs.enqueue(Task.of("job"));
            LeasedTask job = jobs.dequeue(1, LONG_LEASE, Duration.ZERO, null).get(0);
            byte[] xid = "consume".getBytes(StandardCharsets.UTF_8);
            store.beginTransaction().ack("jobs", job.token()).enqueue("out", Task.of("result")).prepare(xid);
            long cyclesBefore = cycles();
            long syncBefore = syncCycles();

            store.commitPrepared(xid);

            assertThat(cycles() - cyclesBefore).isEqualTo(1);
            assertThat(syncCycles() - syncBefore).isEqualTo(1);
            assertThat(jobs.counts().inFlight()).as("the consumed task is acked").isZero();
            assertThat(jobs.counts().depth()).isZero();
            assertThat(out.dequeue(1, LONG_LEASE, Duration.ZERO, null)).extracting(LeasedTask::payloadAsString)
                    .containsExactly("result");
        }
    }

    @Test
    void afterACleanReopenTheCommittedBranchIsThereOnce() throws Exception {
        byte[] xid = "reopen".getBytes(StandardCharsets.UTF_8);
        try (Mikyu store = open()) {
            store.createTaskQueue("out", taskConfig());
            store.beginTransaction().enqueue("out", Task.of("m")).prepare(xid);
            store.commitPrepared(xid);
        }
        try (Mikyu store = open()) {
            assertThat(TxnFixture.ready(store.taskQueue("out"))).as("applied once").containsExactly("m");
            assertThat(store.preparedTransactions()).isEmpty();
        }
    }
}
