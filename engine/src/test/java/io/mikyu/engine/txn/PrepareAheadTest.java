package io.mikyu.engine.txn;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedAhead;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TransactionExistsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static io.mikyu.engine.txn.TxnFixture.LONG_LEASE;
import static io.mikyu.engine.txn.TxnFixture.taskConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A PREPARE record written ahead of phase one ({@code Transaction.prepareAhead}): written and fsynced before
 * {@code confirm} is called, so confirming waits for no writer cycle; until then nothing is in doubt in the running
 * store; committed in one phase, rolled back, or found stale at confirm it leaves nothing in doubt across a reopen;
 * left unconfirmed when the store stops, it is in doubt after the reopen, for its manager to roll back.
 */
@Timeout(60)
class PrepareAheadTest {

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

    /** Every fsync: the writer's, and those of the records written ahead, which run on a thread of their own. */
    private long fsyncs() {
        return (long) meters.get("mikyu.engine.fsyncs").functionCounter().count();
    }

    private static byte[] xid(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Leases the one task of {@code jobs} and writes ahead a branch that acks it and enqueues "result" to out. */
    private static PreparedAhead ackAndSendAhead(Mikyu store, byte[] xid, LeasedTask job) {
        return store.beginTransaction().ack("jobs", job.token()).enqueue("out", Task.of("result"))
                .prepareAhead(xid, "app");
    }

    private static LeasedTask createAndLease(Mikyu store) throws InterruptedException {
        TaskQueue jobs = store.createTaskQueue("jobs", taskConfig());
        store.createTaskQueue("out", taskConfig());
        jobs.enqueue(Task.of("job"));
        return jobs.dequeue(1, LONG_LEASE, Duration.ZERO, null).get(0);
    }

    @Test
    void theRecordIsFsyncedBeforeConfirmAndConfirmingWaitsForNoCycle() throws Exception {
        try (Mikyu store = open()) {
            LeasedTask job = createAndLease(store);
            byte[] xid = xid("ahead");
            long cyclesBefore = cycles();
            long fsyncsBefore = fsyncs();

            PreparedAhead ahead = ackAndSendAhead(store, xid, job);
            assertThat(store.preparedTransactions()).as("not prepared before confirm").isEmpty();
            await().atMost(Duration.ofSeconds(30)).until(() -> fsyncs() - fsyncsBefore == 1);
            long cyclesWritten = cycles();

            ahead.confirm();

            assertThat(cycles()).as("confirm waited for no writer cycle of its own").isEqualTo(cyclesWritten);
            assertThat(cycles() - cyclesBefore).as("the PREPARE's one cycle").isEqualTo(1);
            assertThat(fsyncs() - fsyncsBefore).as("and its one fsync").isEqualTo(1);
            assertThat(store.preparedTransactions()).singleElement().isEqualTo(xid);
            assertThat(store.inDoubtTransactions()).singleElement().extracting(PreparedTransaction::owner)
                    .isEqualTo("app");
            assertThat(store.taskQueue("out").counts().depth()).as("invisible until decided").isZero();

            store.commitPrepared(xid);

            assertThat(TxnFixture.ready(store.taskQueue("out"))).containsExactly("result");
            assertThat(store.taskQueue("jobs").counts().inFlight()).as("the job is acked").isZero();
            assertThat(store.taskQueue("jobs").counts().depth()).isZero();
        }
        try (Mikyu store = open()) {
            assertThat(store.preparedTransactions()).isEmpty();
            assertThat(TxnFixture.ready(store.taskQueue("out"))).as("applied once").containsExactly("result");
        }
    }

    @Test
    void aConfirmedBranchIsInDoubtAfterAReopenAndHoldsWhatItAcks() throws Exception {
        byte[] xid = xid("confirmed");
        try (Mikyu store = open()) {
            ackAndSendAhead(store, xid, createAndLease(store)).confirm();
        }
        try (Mikyu store = open()) {
            assertThat(store.preparedTransactions()).singleElement().isEqualTo(xid);
            store.rollbackPrepared(xid);
            assertThat(store.taskQueue("out").counts().depth()).isZero();
            assertThat(store.preparedTransactions()).isEmpty();
        }
    }

    @Test
    void committedInOnePhaseItIsAppliedAndNothingIsInDoubtAfterAReopen() throws Exception {
        byte[] xid = xid("one-phase");
        try (Mikyu store = open()) {
            PreparedAhead ahead = ackAndSendAhead(store, xid, createAndLease(store));

            ahead.commit();

            assertThat(store.preparedTransactions()).isEmpty();
            assertThat(TxnFixture.ready(store.taskQueue("out"))).as("visible once commit returned")
                    .containsExactly("result");
            assertThat(store.taskQueue("jobs").counts().inFlight()).isZero();
            assertThat(store.taskQueue("jobs").counts().depth()).isZero();
        }
        try (Mikyu store = open()) {
            assertThat(store.preparedTransactions()).as("the COMMIT supersedes the PREPARE written ahead").isEmpty();
            assertThat(TxnFixture.ready(store.taskQueue("out"))).as("applied once").containsExactly("result");
            assertThat(store.taskQueue("jobs").counts().depth()).isZero();
        }
    }

    @Test
    void rolledBackNothingIsInDoubtAfterAReopenAndTheXidIsFreeAgain() throws Exception {
        byte[] xid = xid("rolled-back");
        try (Mikyu store = open()) {
            LeasedTask job = createAndLease(store);
            PreparedAhead ahead = ackAndSendAhead(store, xid, job);
            assertThatThrownBy(() -> store.beginTransaction().enqueue("out", Task.of("other")).prepare(xid))
                    .as("the xid is taken while its record is written ahead")
                    .isInstanceOf(TransactionExistsException.class);

            ahead.rollback();

            assertThat(store.preparedTransactions()).isEmpty();
            assertThat(store.taskQueue("jobs").counts().inFlight()).as("still leased to its consumer, not acked")
                    .isEqualTo(1);
            store.beginTransaction().ack("jobs", job.token()).prepare(xid);
            store.rollbackPrepared(xid);
        }
        try (Mikyu store = open()) {
            assertThat(store.preparedTransactions()).isEmpty();
            assertThat(store.taskQueue("out").counts().depth()).isZero();
        }
    }

    @Test
    void anAckThatWentStaleMeanwhileFailsTheConfirmAndLeavesNothingInDoubt() throws Exception {
        byte[] xid = xid("stale");
        try (Mikyu store = open()) {
            LeasedTask job = createAndLease(store);
            PreparedAhead ahead = ackAndSendAhead(store, xid, job);
            store.taskQueue("jobs").ack(job.token()); // settled outside the branch: its ack can no longer apply

            assertThatThrownBy(ahead::confirm).isInstanceOf(StaleLeaseException.class);

            assertThat(store.preparedTransactions()).isEmpty();
        }
        try (Mikyu store = open()) {
            assertThat(store.preparedTransactions()).as("its ROLLBACK follows the PREPARE written ahead").isEmpty();
            assertThat(store.taskQueue("out").counts().depth()).isZero();
        }
    }

    @Test
    void leftUnconfirmedWhenTheStoreStopsItIsInDoubtAfterTheReopenForItsManagerToRollBack() throws Exception {
        byte[] xid = xid("never-confirmed");
        try (Mikyu store = open()) {
            LeasedTask job = createAndLease(store); // its own fsyncs counted before
            long fsyncsBefore = fsyncs();
            ackAndSendAhead(store, xid, job);
            await().atMost(Duration.ofSeconds(30)).until(() -> fsyncs() - fsyncsBefore == 1);
        }
        try (Mikyu store = open()) {
            // The store cannot tell it from a confirmed prepare: the manager, which never logged a decision for a
            // branch it did not see prepared, rolls it back (presumed abort).
            assertThat(store.preparedTransactions()).singleElement().isEqualTo(xid);
            assertThat(store.taskQueue("jobs").dequeue(1, LONG_LEASE, Duration.ZERO, null))
                    .as("the job it acks is held while in doubt").isEmpty();
            store.rollbackPrepared(xid);
            assertThat(store.taskQueue("out").counts().depth()).isZero();
            assertThat(store.preparedTransactions()).isEmpty();
        }
    }

    @Test
    void theHandleIsUsedOnce() throws Exception {
        try (Mikyu store = open()) {
            PreparedAhead ahead = ackAndSendAhead(store, xid("once"), createAndLease(store));
            ahead.rollback();
            assertThatThrownBy(ahead::confirm).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(ahead::commit).isInstanceOf(IllegalStateException.class);
        }
    }
}
