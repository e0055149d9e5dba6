package io.mikyu.engine.txn;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.support.BackgroundCall;
import io.mikyu.engine.support.SteppableTimeSource;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mikyu.engine.txn.TxnFixture.LONG_LEASE;
import static io.mikyu.engine.txn.TxnFixture.payloads;
import static io.mikyu.engine.txn.TxnFixture.ready;
import static io.mikyu.engine.txn.TxnFixture.sharedConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** One transaction over log queues, task queues, shared and exclusive groups: all of it or none. */
@Timeout(30)
class TransactionCommitTest {

    @TempDir
    Path data;

    /** What a test leased before building its transaction. */
    private record Leased(LeasedTask t0, LeasedTask t1, LeasedTask t2, SharedGroup.Delivery d0,
                          SharedGroup.Delivery d1) {
    }

    private static Leased lease(Mikyu store) throws InterruptedException {
        TaskQueue jobs = store.taskQueue("jobs");
        List<LeasedTask> ts = jobs.dequeue(3, LONG_LEASE, Duration.ZERO, null);
        assertThat(ts).hasSize(3);
        List<SharedGroup.Delivery> ds = store.log("src").sharedGroup("sg", sharedConfig())
                .fetch(2, LONG_LEASE, Duration.ZERO);
        assertThat(ds).hasSize(2);
        return new Leased(ts.get(0), ts.get(1), ts.get(2), ds.get(0), ds.get(1));
    }

    /** Appends to a and b, enqueues to out, acks t0, nacks t1, acks d0, nacks d1, commits ex at 3. */
    private static Transaction build(Mikyu store, Leased l) {
        return store.beginTransaction()
                .append("a", Entry.of("a1"))
                .append("b", Entry.of("b1"))
                .append("a", Entry.of("a2"))
                .enqueue("out", Task.of("o1"))
                .enqueue("out", Task.of("o2").withPriority(9))
                .ack("jobs", l.t0().token())
                .nack("jobs", l.t1().token(), Duration.ZERO, "retry")
                .ackShared("src", "sg", l.d0().token())
                .nackShared("src", "sg", l.d1().token(), Duration.ZERO, "retry")
                .commitOffset("src", "ex", 3);
    }

    private static void assertNothingApplied(Mikyu store, Leased l) {
        assertThat(store.log("a").endOffset()).isZero();
        assertThat(store.log("b").endOffset()).isZero();
        assertThat(store.taskQueue("out").counts().depth()).isZero();
        assertThat(store.taskQueue("jobs").counts().inFlight()).as("acked and nacked tasks stay leased").isEqualTo(3);
        SharedGroup sg = store.log("src").sharedGroup("sg", sharedConfig());
        assertThat(sg.counts().inFlight()).isEqualTo(2);
        assertThat(sg.committedOffset()).isZero();
        assertThat(store.log("src").groups()).doesNotContain("ex");
        if (l != null) {
            // ... with their holders, who can still finish them
            assertThat(store.taskQueue("jobs").extend(l.t0().token(), LONG_LEASE)).isPositive();
            assertThat(sg.extend(l.d0().token(), LONG_LEASE)).isPositive();
        }
    }

    @Test
    void aCommitAppliesAppendsEnqueuesAcksNacksAndOffsetCommitsTogether() throws Exception {
        Leased l;
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 3, 5);
            l = lease(store);
            Transaction tx = build(store, l);
            assertThat(tx.size()).isEqualTo(10);
            assertNothingApplied(store, null);

            tx.commit();

            assertThat(payloads(store.log("a"))).containsExactly("a1", "a2");
            assertThat(payloads(store.log("b"))).containsExactly("b1");
            assertThat(ready(store.taskQueue("out"))).containsExactly("o2", "o1");
            TaskQueue jobs = store.taskQueue("jobs");
            assertThatThrownBy(() -> jobs.ack(l.t0().token())).as("t0 was acked").isInstanceOf(StaleLeaseException.class);
            LeasedTask again = jobs.dequeue(1, LONG_LEASE, Duration.ofSeconds(3), null).get(0);
            assertThat(again.id()).as("t1 was nacked").isEqualTo(l.t1().id());
            assertThat(again.attempt()).isEqualTo(2);
            assertThat(jobs.counts().inFlight()).as("t1 again, t2 untouched").isEqualTo(2);

            SharedGroup sg = store.log("src").sharedGroup("sg", sharedConfig());
            assertThat(sg.committedOffset()).as("d0 acked, d1 nacked").isEqualTo(1);
            SharedGroup.Delivery d1 = sg.fetch(1, LONG_LEASE, Duration.ofSeconds(3)).get(0);
            assertThat(d1.record().offset()).isEqualTo(l.d1().record().offset());
            assertThat(d1.deliveryCount()).isEqualTo(2);
            assertThat(store.log("src").group("ex").position()).isEqualTo(3);
            assertThat(store.log("src").group("ex").hasCommitted()).isTrue();

            assertThatThrownBy(() -> tx.append("a", Entry.of("late"))).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(tx::commit).isInstanceOf(IllegalStateException.class);
            tx.close(); // harmless
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(payloads(store.log("a"))).containsExactly("a1", "a2");
            assertThat(payloads(store.log("b"))).containsExactly("b1");
            assertThat(store.taskQueue("out").counts().depth()).isEqualTo(2);
            assertThat(store.taskQueue("jobs").counts().depth()).as("t1 and t2 left").isEqualTo(2);
            assertThat(store.log("src").group("ex").position()).isEqualTo(3);
        }
    }

    @Test
    void aRollbackLeavesNothingAndTheAckedTasksStayWithTheirHolders() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 3, 5);
            Leased l = lease(store);
            Transaction tx = build(store, l);
            tx.rollback();
            assertThatThrownBy(tx::commit).isInstanceOf(IllegalStateException.class);
            assertNothingApplied(store, l);
            store.taskQueue("jobs").ack(l.t0().token());
            store.log("src").sharedGroup("sg", sharedConfig()).ack(l.d0().token());
        }
    }

    @Test
    void closingAnUncommittedTransactionRollsItBack() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 3, 5);
            Leased l = lease(store);
            try (Transaction tx = build(store, l)) {
                assertThat(tx.size()).isEqualTo(10);
            }
            assertNothingApplied(store, l);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertNothingApplied(store, null);
        }
    }

    @Test
    void aStaleTaskLeaseFailsTheCommitAndNothingIsApplied() throws Exception {
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().timeSource(clock).build())) {
            TxnFixture.create(store, 4, 5);
            Leased l = lease(store);
            TaskQueue jobs = store.taskQueue("jobs");
            LeasedTask stale = jobs.dequeue(1, Duration.ofMillis(100), Duration.ZERO, null).get(0);
            clock.advance(Duration.ofMillis(100 + 50)); // lease 100 ms + backoff 50 ms
            LeasedTask redelivered = jobs.dequeue(1, LONG_LEASE, Duration.ZERO, null).get(0);
            assertThat(redelivered.id()).isEqualTo(stale.id());

            Transaction tx = build(store, l).ack("jobs", stale.token());
            assertThatThrownBy(tx::commit).isInstanceOf(StaleLeaseException.class);
            assertNothingApplied4(store, l);
        }
    }

    @Test
    void aStaleSharedGroupLeaseFailsTheCommitAndNothingIsApplied() throws Exception {
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().timeSource(clock).build())) {
            TxnFixture.create(store, 3, 5);
            SharedGroup sg = store.log("src").sharedGroup("sg", sharedConfig());
            SharedGroup.Delivery stale = sg.fetch(1, Duration.ofMillis(100), Duration.ZERO).get(0);
            clock.advance(Duration.ofMillis(100 + 50)); // lease 100 ms + backoff 50 ms
            SharedGroup.Delivery redelivered = sg.fetch(1, LONG_LEASE, Duration.ZERO).get(0);
            assertThat(redelivered.record().offset()).isEqualTo(stale.record().offset());
            assertThat(redelivered.deliveryCount()).isEqualTo(2);
            Leased l = lease(store);

            // the stale token comes first: nothing after it may be applied either
            Transaction tx = store.beginTransaction().ackShared("src", "sg", stale.token());
            Transaction full = build(store, l);
            assertThat(full.size()).isEqualTo(10);
            full.rollback();
            tx.append("a", Entry.of("a1")).enqueue("out", Task.of("o1")).ack("jobs", l.t0().token())
                    .ackShared("src", "sg", l.d0().token()).commitOffset("src", "ex", 3);
            assertThatThrownBy(tx::commit).isInstanceOf(StaleLeaseException.class);

            assertThat(store.log("a").endOffset()).isZero();
            assertThat(store.taskQueue("out").counts().depth()).isZero();
            assertThat(store.taskQueue("jobs").counts().inFlight()).isEqualTo(3);
            assertThat(sg.counts().inFlight()).isEqualTo(3);
            assertThat(store.log("src").groups()).doesNotContain("ex");
            sg.ack(l.d0().token());
            store.taskQueue("jobs").ack(l.t0().token());
        }
    }

    private static void assertNothingApplied4(Mikyu store, Leased l) {
        assertThat(store.log("a").endOffset()).isZero();
        assertThat(store.log("b").endOffset()).isZero();
        assertThat(store.taskQueue("out").counts().depth()).isZero();
        assertThat(store.taskQueue("jobs").counts().inFlight()).isEqualTo(4);
        assertThat(store.log("src").sharedGroup("sg", sharedConfig()).committedOffset()).isZero();
        assertThat(store.log("src").groups()).doesNotContain("ex");
        store.taskQueue("jobs").ack(l.t0().token());
    }

    @Test
    void anUnknownQueueFailsTheCommitWithQueueNotFoundAndNothingIsApplied() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 3, 5);
            Leased l = lease(store);
            for (Transaction tx : List.of(
                    build(store, l).append("nope", Entry.of("x")),
                    build(store, l).enqueue("nope", Task.of("x")),
                    build(store, l).ack("nope", l.t0().token()),
                    build(store, l).ackShared("nope", "sg", l.d0().token()),
                    build(store, l).ackShared("src", "nope", l.d0().token()),
                    build(store, l).commitOffset("nope", "ex", 0))) {
                assertThatThrownBy(tx::commit).isInstanceOf(QueueNotFoundException.class);
                assertNothingApplied(store, l);
            }
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertNothingApplied(store, null);
        }
    }

    @Test
    void anOffsetOutsideTheLogFailsTheCommitAndNothingIsApplied() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 3, 5);
            Leased l = lease(store);
            Transaction tx = build(store, l).commitOffset("src", "ex", 99);
            assertThatThrownBy(tx::commit).isInstanceOf(IllegalArgumentException.class);
            assertNothingApplied(store, l);
        }
    }

    /**
     * {@code commitOffset} names an exclusive group; naming a shared group is a mistake the commit must refuse
     * before anything is written, not a committed transaction that can never be applied (and that recovery then
     * fails on at every open).
     */
    @Test
    void commitOffsetOnASharedGroupIsRefusedBeforeAnythingIsAppliedAndTheStoreStillOpens() throws Exception {
        SoftAssertions softly = new SoftAssertions();
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 0, 5);
            Transaction tx = store.beginTransaction().append("a", Entry.of("a1")).commitOffset("src", "sg", 2);
            Throwable failure = catchThrowable(tx::commit);
            softly.assertThat(failure).as("the commit fails").isNotNull();
            softly.assertThat(failure).as("refused as a misuse, not 'committed but its writes failed'")
                    .isInstanceOf(IllegalStateException.class);
            softly.assertThat(store.log("a").endOffset()).as("nothing applied").isZero();
        }
        Throwable reopen = catchThrowable(() -> {
            try (Mikyu store = Mikyu.open(data)) {
                softly.assertThat(store.log("a").endOffset()).as("nothing applied after reopen either").isZero();
                softly.assertThat(store.log("src").sharedGroup("sg", sharedConfig()).committedOffset()).isZero();
            }
        });
        softly.assertThat(reopen).as("the store opens again").isNull();
        softly.assertAll();
    }

    @Test
    void aNackInATransactionOnTheLastAttemptDeadLettersTheTask() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("once", TxnFixture.taskConfig().withMaxAttempts(1));
            q.enqueue(Task.of("poison"));
            LeasedTask t = q.dequeue(1, LONG_LEASE, Duration.ZERO, null).get(0);
            store.beginTransaction().nack("once", t.token(), null, "bad input").commit();
            assertThat(q.counts().depth()).isZero();
            LeasedTask dead = q.deadLetters().dequeue(Duration.ofSeconds(2));
            assertThat(dead).isNotNull();
            assertThat(dead.payloadAsString()).isEqualTo("poison");
            assertThat(dead.headers().getString(TaskQueue.DLQ_REASON)).isEqualTo("bad input");
        }
    }

    @Test
    void anAppendInATransactionWakesASharedGroupMemberWaitingOnTheQueue() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue a = store.createLog("a");
            SharedGroup g = a.sharedGroup("g", sharedConfig());
            // a wait far longer than the test may take: returning proves the commit's append reached it
            try (BackgroundCall<List<SharedGroup.Delivery>> waiting = BackgroundCall.start("member",
                    () -> g.fetch(5, LONG_LEASE, Duration.ofMinutes(10))).awaitTimedWaiting()) {
                assertThat(waiting.isDone()).isFalse();
                store.beginTransaction().append("a", Entry.of("x")).commit();
                List<SharedGroup.Delivery> ds = waiting.get();
                assertThat(ds).hasSize(1);
                assertThat(ds.get(0).record().payloadAsString()).isEqualTo("x");
            }
        }
    }

    @Test
    void anEmptyTransactionCommitsAndTransactionsAreIndependent() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 0, 0);
            store.beginTransaction().commit();
            Transaction t1 = store.beginTransaction().append("a", Entry.of("one"));
            Transaction t2 = store.beginTransaction().append("a", Entry.of("two"));
            t2.commit();
            t1.rollback();
            assertThat(payloads(store.log("a"))).containsExactly("two");
        }
    }
}
