package io.mikyu.engine.txn;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.Task;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.TransactionExistsException;
import io.mikyu.engine.TransactionNotFoundException;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.mikyu.engine.txn.TxnFixture.LONG_LEASE;
import static io.mikyu.engine.txn.TxnFixture.sharedConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the store tells about prepared, undecided transactions: owner, time, queues; their errors and meters. */
@Timeout(40)
class InDoubtTransactionsTest {

    @TempDir
    Path data;

    private static byte[] xid(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Appends to a, enqueues to out, acks a jobs task, acks a src record of sg and commits src's group ex. */
    private static void prepareAcrossQueues(Mikyu store, byte[] xid, String owner) throws InterruptedException {
        LeasedTask t = store.taskQueue("jobs").dequeue(1, LONG_LEASE, Duration.ZERO, null).get(0);
        SharedGroup.Delivery d = store.log("src").sharedGroup("sg", sharedConfig())
                .fetch(1, LONG_LEASE, Duration.ZERO).get(0);
        store.beginTransaction()
                .append("a", Entry.of("a1"))
                .enqueue("out", Task.of("o1"))
                .enqueue("out", Task.of("o2"))
                .ack("jobs", t.token())
                .ackShared("src", "sg", d.token())
                .commitOffset("src", "ex", 1)
                .prepare(xid, owner);
    }

    @Test
    void anInDoubtTransactionIsListedWithItsOwnerTimeAndQueues() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 1, 1);
            assertThat(store.inDoubtTransactions()).isEmpty();
            Instant before = Instant.now();
            prepareAcrossQueues(store, xid("xa-1"), "alice");
            Instant after = Instant.now();

            List<PreparedTransaction> listed = store.inDoubtTransactions();
            assertThat(listed).hasSize(1);
            PreparedTransaction p = listed.get(0);
            assertThat(p.xid()).isEqualTo(xid("xa-1"));
            assertThat(p.owner()).isEqualTo("alice");
            assertThat(p.preparedAt()).isBetween(before.minusMillis(1), after.plusMillis(1));
            assertThat(p.queues()).containsExactly("a", "jobs", "out", "src");
            assertThat(store.preparedTransactions()).singleElement().isEqualTo(xid("xa-1"));
        }
    }

    @Test
    void ownerAndTimeOfPreparingSurviveAReopenAndAPrepareWithoutOwnerHasNone() throws Exception {
        PreparedTransaction first;
        PreparedTransaction second;
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 1, 1);
            prepareAcrossQueues(store, xid("xa-owned"), "bob");
            store.beginTransaction().append("b", Entry.of("b1")).prepare(xid("xa-anonymous"));
            List<PreparedTransaction> listed = store.inDoubtTransactions();
            assertThat(listed).extracting(PreparedTransaction::owner).as("oldest first").containsExactly("bob", null);
            first = listed.get(0);
            second = listed.get(1);
        }
        try (Mikyu store = Mikyu.open(data)) {
            List<PreparedTransaction> listed = store.inDoubtTransactions();
            assertThat(listed).as("the same xids, owners, times and queues, by content")
                    .containsExactly(first, second);
            assertThat(listed.get(1).queues()).containsExactly("b");
            store.commitPrepared(xid("xa-anonymous"));
            assertThat(store.inDoubtTransactions()).containsExactly(first);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.inDoubtTransactions()).containsExactly(first);
            store.rollbackPrepared(xid("xa-owned"));
            assertThat(store.inDoubtTransactions()).isEmpty();
        }
    }

    @Test
    void preparingAnXidTwiceAndDecidingAnUnknownOneFailWithTheirOwnTypes() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TxnFixture.create(store, 1, 1);
            store.beginTransaction().append("a", Entry.of("a1")).prepare(xid("xa-dup"), "carol");
            Transaction again = store.beginTransaction().append("b", Entry.of("b1"));
            assertThatThrownBy(() -> again.prepare(xid("xa-dup"), "dave"))
                    .isInstanceOf(TransactionExistsException.class).hasMessageContaining("already prepared");
            assertThat(store.inDoubtTransactions()).singleElement()
                    .satisfies(p -> assertThat(p.owner()).isEqualTo("carol"));

            assertThatThrownBy(() -> store.commitPrepared(xid("nope")))
                    .isInstanceOf(TransactionNotFoundException.class).hasMessageContaining("no transaction");
            assertThatThrownBy(() -> store.rollbackPrepared(xid("nope")))
                    .isInstanceOf(TransactionNotFoundException.class);

            store.commitPrepared(xid("xa-dup"));
            assertThatThrownBy(() -> store.commitPrepared(xid("xa-dup"))).as("decided already")
                    .isInstanceOf(TransactionNotFoundException.class);
            assertThatThrownBy(() -> store.rollbackPrepared(xid("xa-dup")))
                    .isInstanceOf(TransactionNotFoundException.class);
            store.beginTransaction().append("b", Entry.of("b2")).prepare(xid("xa-dup"));
            assertThat(store.inDoubtTransactions()).as("a decided xid may be used again").hasSize(1);
        }
    }

    @Test
    void aPreparedTransactionCopiesItsXidAndComparesByContent() {
        byte[] bytes = xid("xa-copy");
        PreparedTransaction p = new PreparedTransaction(bytes, "erin", Instant.ofEpochMilli(5), List.of("q"));
        bytes[0] = 'X';
        p.xid()[1] = 'Y';
        assertThat(p.xid()).isEqualTo(xid("xa-copy"));
        PreparedTransaction same = new PreparedTransaction(xid("xa-copy"), "erin", Instant.ofEpochMilli(5),
                List.of("q"));
        assertThat(p).isEqualTo(same).hasSameHashCodeAs(same);
        assertThat(p).isNotEqualTo(new PreparedTransaction(xid("xa-other"), "erin", Instant.ofEpochMilli(5),
                List.of("q")));
        assertThat(p.toString()).contains("erin").contains("78612d636f7079");
    }

    @Test
    void gaugesCountInDoubtTransactionsAndTheAgeOfTheOldest() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        EngineConfig config = EngineConfig.builder().meterRegistry(registry).timeSource(clock).build();
        try (Mikyu store = Mikyu.open(data, config)) {
            TxnFixture.create(store, 1, 1);
            assertThat(gauge(registry, "mikyu.engine.transactions.indoubt")).isZero();
            assertThat(gauge(registry, "mikyu.engine.transactions.indoubt.age")).isZero();
            store.beginTransaction().append("a", Entry.of("a1")).prepare(xid("xa-m1"));
            clock.advance(Duration.ofSeconds(1));
            store.beginTransaction().append("b", Entry.of("b1")).prepare(xid("xa-m2"));
            assertThat(gauge(registry, "mikyu.engine.transactions.indoubt")).isEqualTo(2.0);
            clock.advance(Duration.ofSeconds(4));
            assertThat(gauge(registry, "mikyu.engine.transactions.indoubt.age")).as("the age of the oldest")
                    .isEqualTo(5.0);
        }
        clock.advance(Duration.ofSeconds(2));
        try (Mikyu store = Mikyu.open(data, config)) {
            assertThat(gauge(registry, "mikyu.engine.transactions.indoubt")).as("recovered in doubt").isEqualTo(2.0);
            assertThat(gauge(registry, "mikyu.engine.transactions.indoubt.age"))
                    .as("measured from the original prepare").isEqualTo(7.0);
            store.commitPrepared(xid("xa-m1"));
            assertThat(gauge(registry, "mikyu.engine.transactions.indoubt")).isEqualTo(1.0);
            store.rollbackPrepared(xid("xa-m2"));
            assertThat(gauge(registry, "mikyu.engine.transactions.indoubt")).isZero();
            assertThat(gauge(registry, "mikyu.engine.transactions.indoubt.age")).isZero();
        }
        assertThat(registry.find("mikyu.engine.transactions.indoubt").gauge()).as("removed with the store").isNull();
    }

    private static double gauge(SimpleMeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }
}
