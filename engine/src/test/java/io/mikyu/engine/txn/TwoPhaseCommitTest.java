package io.mikyu.engine.txn;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mikyu.engine.txn.TxnFixture.LONG_LEASE;
import static io.mikyu.engine.txn.TxnFixture.payloads;
import static io.mikyu.engine.txn.TxnFixture.ready;
import static io.mikyu.engine.txn.TxnFixture.sharedConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Prepare, then commit or roll back, also after a reopen: in-doubt transactions keep what they hold. */
@Timeout(40)
class TwoPhaseCommitTest {

    /** Short enough that a lease not held by a prepared transaction visibly ends during a test. */
    static final Duration SHORT_LEASE = Duration.ofMillis(300);

    @TempDir
    Path data;

    /** The tests that let leases run out move this clock (the others need no time to pass). */
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    private static byte[] xid(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private record Held(LeasedTask task, SharedGroup.Delivery record) {
    }

    /** Leases job-0 and src-0 under a short lease, prepares a transaction acking both, appending and enqueuing. */
    private static Held prepare(Mikyu store, byte[] xid) throws InterruptedException {
        LeasedTask t = store.taskQueue("jobs").dequeue(1, SHORT_LEASE, Duration.ZERO, null).get(0);
        SharedGroup.Delivery d = store.log("src").sharedGroup("sg", sharedConfig())
                .fetch(1, SHORT_LEASE, Duration.ZERO).get(0);
        Transaction tx = store.beginTransaction()
                .append("a", Entry.of("a1"))
                .append("b", Entry.of("b1"))
                .enqueue("out", Task.of("o1"))
                .ack("jobs", t.token())
                .ackShared("src", "sg", d.token())
                .commitOffset("src", "ex", 1);
        tx.prepare(xid);
        assertThatThrownBy(tx::commit).as("a prepared transaction object is finished")
                .isInstanceOf(IllegalStateException.class);
        tx.close();
        return new Held(t, d);
    }

    /** Effects invisible; the acked task and record still leased, not handed out again, even past their lease. */
    private static void assertInDoubt(Mikyu store, byte[] xid) throws InterruptedException {
        assertThat(store.preparedTransactions()).as("listed in doubt")
                .anySatisfy(x -> assertThat(x).isEqualTo(xid));
        assertThat(store.log("a").endOffset()).isZero();
        assertThat(store.log("b").endOffset()).isZero();
        assertThat(store.taskQueue("out").counts().depth()).isZero();
        assertThat(store.log("src").groups()).doesNotContain("ex");
        TaskQueue jobs = store.taskQueue("jobs");
        SharedGroup sg = store.log("src").sharedGroup("sg", sharedConfig());
        assertThat(jobs.dequeue(1, LONG_LEASE, Duration.ZERO, null))
                .as("the held task is not handed out again").isEmpty();
        assertThat(sg.fetch(1, LONG_LEASE, Duration.ZERO))
                .as("the held record is not handed out again").isEmpty();
        assertThat(jobs.counts().inFlight()).isEqualTo(1);
        assertThat(sg.counts().inFlight()).isEqualTo(1);
        assertThat(sg.committedOffset()).isZero();
    }

    private static void assertCommitted(Mikyu store) {
        assertThat(payloads(store.log("a"))).containsExactly("a1");
        assertThat(payloads(store.log("b"))).containsExactly("b1");
        assertThat(ready(store.taskQueue("out"))).containsExactly("o1");
        assertThat(store.taskQueue("jobs").counts().depth()).isZero();
        SharedGroup sg = store.log("src").sharedGroup("sg", sharedConfig());
        assertThat(sg.counts().depth()).isZero();
        assertThat(sg.committedOffset()).isEqualTo(1);
        assertThat(store.log("src").group("ex").position()).isEqualTo(1);
    }

    /** Nothing applied; the held task and record come back with their next attempt. */
    private static void assertRolledBack(Mikyu store, Held held) throws InterruptedException {
        assertThat(store.log("a").endOffset()).isZero();
        assertThat(store.log("b").endOffset()).isZero();
        assertThat(store.taskQueue("out").counts().depth()).isZero();
        assertThat(store.log("src").groups()).doesNotContain("ex");
        LeasedTask again = store.taskQueue("jobs").dequeue(1, LONG_LEASE, Duration.ofSeconds(3), null).get(0);
        assertThat(again.id()).isEqualTo(held.task().id());
        assertThat(again.attempt()).isEqualTo(2);
        SharedGroup.Delivery back = store.log("src").sharedGroup("sg", sharedConfig())
                .fetch(1, LONG_LEASE, Duration.ofSeconds(3)).get(0);
        assertThat(back.record().offset()).isEqualTo(held.record().record().offset());
        assertThat(back.deliveryCount()).isEqualTo(2);
    }

    @Test
    void aPreparedTransactionIsInvisibleHoldsItsLeasesAndCommitPreparedAppliesIt() throws Exception {
        byte[] xid = xid("xa-1");
        try (Mikyu store = open()) {
            TxnFixture.create(store, 1, 1);
            assertThat(store.preparedTransactions()).isEmpty();
            prepare(store, xid);
            clock.advance(SHORT_LEASE.plusMillis(200)); // past the lease and the backoff
            assertInDoubt(store, xid);

            store.commitPrepared(xid("xa-1")); // an equal xid, another array
            assertCommitted(store);
            assertThat(store.preparedTransactions()).isEmpty();
            assertThatThrownBy(() -> store.commitPrepared(xid)).isInstanceOf(MikyuException.class);
            assertThatThrownBy(() -> store.rollbackPrepared(xid)).isInstanceOf(MikyuException.class);
        }
        try (Mikyu store = open()) {
            assertThat(store.preparedTransactions()).isEmpty();
            assertCommitted(store);
        }
    }

    @Test
    void rollbackPreparedDiscardsTheTransactionAndTheHeldTasksAreRedeliveredWithTheNextAttempt() throws Exception {
        byte[] xid = xid("xa-2");
        try (Mikyu store = open()) {
            TxnFixture.create(store, 1, 1);
            Held held = prepare(store, xid);
            clock.advance(SHORT_LEASE.plusMillis(200));
            assertInDoubt(store, xid);

            store.rollbackPrepared(xid);
            assertThat(store.preparedTransactions()).isEmpty();
            assertRolledBack(store, held);
            assertThatThrownBy(() -> store.commitPrepared(xid)).isInstanceOf(MikyuException.class);
            assertThatThrownBy(() -> store.taskQueue("jobs").ack(held.task().token()))
                    .as("the old lease is gone").isInstanceOf(StaleLeaseException.class);
        }
        try (Mikyu store = open()) {
            assertThat(store.preparedTransactions()).isEmpty();
            assertThat(store.log("a").endOffset()).isZero();
            assertThat(store.taskQueue("out").counts().depth()).isZero();
        }
    }

    @Test
    void afterAReopenThePreparedTransactionIsStillListedHoldsItsTasksAndCanBeCommitted() throws Exception {
        byte[] xid = xid("xa-3");
        try (Mikyu store = open()) {
            TxnFixture.create(store, 1, 1);
            prepare(store, xid);
        }
        clock.advance(SHORT_LEASE.plusMillis(200)); // the leases end while the store is closed
        try (Mikyu store = open()) {
            assertInDoubt(store, xid);
        }
        try (Mikyu store = open()) {
            assertInDoubt(store, xid); // a second reopen changes nothing
            store.commitPrepared(xid);
            assertCommitted(store);
        }
        try (Mikyu store = open()) {
            assertThat(store.preparedTransactions()).isEmpty();
            assertCommitted(store);
        }
    }

    @Test
    void afterAReopenRollbackPreparedReturnsTheHeldTasks() throws Exception {
        byte[] xid = xid("xa-4");
        Held held;
        try (Mikyu store = open()) {
            TxnFixture.create(store, 1, 1);
            held = prepare(store, xid);
        }
        try (Mikyu store = open()) {
            clock.advance(SHORT_LEASE.plusMillis(200));
            assertInDoubt(store, xid);
            store.rollbackPrepared(xid);
            assertRolledBack(store, held);
        }
        try (Mikyu store = open()) {
            assertThat(store.preparedTransactions()).isEmpty();
        }
    }

    @Test
    void rollbackPreparedGivesTheHeldTasksBackAtOnceAndARestartFindsThemReady() throws Exception {
        byte[] xid = xid("xa-long");
        long taskId;
        long offset;
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 1, 1);
            // leases far longer than the test: the tasks can only come back through the rollback
            LeasedTask t = store.taskQueue("jobs").dequeue(1, Duration.ofMinutes(10), Duration.ZERO, null).get(0);
            SharedGroup.Delivery d = store.log("src").sharedGroup("sg", sharedConfig())
                    .fetch(1, Duration.ofMinutes(10), Duration.ZERO).get(0);
            taskId = t.id();
            offset = d.record().offset();
            store.beginTransaction().ack("jobs", t.token()).ackShared("src", "sg", d.token()).prepare(xid);
            store.rollbackPrepared(xid);
            assertThat(store.taskQueue("jobs").counts().ready()).as("back at once, not at the lease's end")
                    .isEqualTo(1);
        }
        try (Mikyu store = Mikyu.open(data)) {
            LeasedTask again = store.taskQueue("jobs").dequeue(1, LONG_LEASE, Duration.ofSeconds(2), null).get(0);
            assertThat(again.id()).isEqualTo(taskId);
            assertThat(again.attempt()).isEqualTo(2);
            SharedGroup.Delivery back = store.log("src").sharedGroup("sg", sharedConfig())
                    .fetch(1, LONG_LEASE, Duration.ofSeconds(2)).get(0);
            assertThat(back.record().offset()).isEqualTo(offset);
            assertThat(back.deliveryCount()).isEqualTo(2);
        }
    }

    @Test
    void anUnknownXidIsAMikyuException() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 1, 1);
            assertThatThrownBy(() -> store.commitPrepared(xid("nope"))).isInstanceOf(MikyuException.class);
            assertThatThrownBy(() -> store.rollbackPrepared(xid("nope"))).isInstanceOf(MikyuException.class);
            prepare(store, xid("known"));
            assertThatThrownBy(() -> store.commitPrepared(xid("know"))).isInstanceOf(MikyuException.class);
            assertThat(store.preparedTransactions()).hasSize(1);
        }
    }

    @Test
    void theSameXidCannotBePreparedTwiceAlsoAfterAReopen() throws Exception {
        byte[] xid = xid("xa-dup");
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 1, 1);
            prepare(store, xid);
            Transaction second = store.beginTransaction().append("a", Entry.of("other"));
            assertThatThrownBy(() -> second.prepare(xid("xa-dup"))).isInstanceOf(MikyuException.class);
            assertThat(store.preparedTransactions()).hasSize(1);
        }
        try (Mikyu store = Mikyu.open(data)) {
            Transaction third = store.beginTransaction().append("a", Entry.of("other"));
            assertThatThrownBy(() -> third.prepare(xid)).isInstanceOf(MikyuException.class);
            assertThat(store.preparedTransactions()).hasSize(1);
            store.commitPrepared(xid);
            assertThat(payloads(store.log("a"))).as("only the first transaction's append").containsExactly("a1");
            // once decided, the xid may be used again
            store.beginTransaction().append("a", Entry.of("again")).prepare(xid);
            store.commitPrepared(xid);
            assertThat(payloads(store.log("a"))).containsExactly("a1", "again");
        }
    }

    @Test
    void prepareWithAStaleLeaseFailsAndNothingIsPrepared() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 1, 0);
            TaskQueue jobs = store.taskQueue("jobs");
            LeasedTask stale = jobs.dequeue(1, Duration.ofMillis(100), Duration.ZERO, null).get(0);
            LeasedTask current = jobs.dequeue(1, LONG_LEASE, Duration.ofSeconds(3), null).get(0);
            assertThat(current.id()).isEqualTo(stale.id());
            Transaction tx = store.beginTransaction().append("a", Entry.of("a1")).ack("jobs", stale.token());
            assertThatThrownBy(() -> tx.prepare(xid("stale"))).isInstanceOf(StaleLeaseException.class);
            assertThat(store.preparedTransactions()).isEmpty();
            assertThatThrownBy(() -> store.commitPrepared(xid("stale"))).isInstanceOf(MikyuException.class);
            assertThat(store.log("a").endOffset()).isZero();
            jobs.ack(current.token());
        }
    }

    @Test
    void severalPreparedTransactionsAreListedAndDecidedIndependently() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 0, 0);
            for (int i = 0; i < 3; i++) {
                store.beginTransaction().append("a", Entry.of("p" + i)).prepare(xid("x" + i));
            }
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.preparedTransactions()).extracting(x -> new String(x, StandardCharsets.UTF_8))
                    .containsExactlyInAnyOrder("x0", "x1", "x2");
            store.rollbackPrepared(xid("x1"));
            store.commitPrepared(xid("x2"));
            store.commitPrepared(xid("x0"));
            assertThat(payloads(store.log("a"))).containsExactly("p2", "p0");
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.preparedTransactions()).isEmpty();
            assertThat(payloads(store.log("a"))).containsExactly("p2", "p0");
        }
    }

    @Test
    void twoThreadsPreparingTheSameXidAtOnceLetExactlyOneSucceed() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 0, 0);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
            try {
                for (int round = 0; round < 20; round++) {
                    byte[] xid = xid("race-" + round);
                    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
                    List<java.util.concurrent.Future<Boolean>> fs = new java.util.ArrayList<>();
                    for (int t = 0; t < 2; t++) {
                        String payload = "r" + round + "-t" + t;
                        fs.add(pool.submit(() -> {
                            Transaction tx = store.beginTransaction().append("a", Entry.of(payload));
                            start.await();
                            try {
                                tx.prepare(xid);
                                return true;
                            } catch (MikyuException e) {
                                return false;
                            }
                        }));
                    }
                    int prepared = 0;
                    for (java.util.concurrent.Future<Boolean> f : fs) {
                        prepared += f.get() ? 1 : 0;
                    }
                    assertThat(prepared).as("round %d: preparations of one xid that succeeded", round).isEqualTo(1);
                    store.commitPrepared(xid);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(store.preparedTransactions()).as("no transaction left in doubt").isEmpty();
            assertThat(store.log("a").endOffset()).isEqualTo(20);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.preparedTransactions()).as("none in doubt after reopen").isEmpty();
        }
    }

    @Test
    void preparedTransactionsReturnsCopies() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 0, 0);
            byte[] xid = xid("copy");
            store.beginTransaction().append("a", Entry.of("c")).prepare(xid);
            xid[0] = 'X'; // the caller's array changes afterwards
            List<byte[]> listed = store.preparedTransactions();
            assertThat(listed).singleElement().isEqualTo(xid("copy"));
            listed.get(0)[0] = 'Y';
            assertThat(store.preparedTransactions()).singleElement().isEqualTo(xid("copy"));
            store.commitPrepared(xid("copy"));
        }
    }
}
