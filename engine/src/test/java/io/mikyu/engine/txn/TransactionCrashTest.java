package io.mikyu.engine.txn;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.support.ChildProcess;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static io.mikyu.engine.txn.TxnFixture.payloads;
import static io.mikyu.engine.txn.TxnFixture.ready;
import static io.mikyu.engine.txn.TxnFixture.sharedConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * All or nothing across a real process death: a child JVM builds or commits a transaction and is killed (SIGKILL)
 * or halts itself at a fault-injection point of {@code TransactionManager}; the parent reopens the store.
 */
@Timeout(90)
class TransactionCrashTest {

    private static final String CRASH_POINT = "mikyu.test.txnCrashPoint";
    private static final Duration STARTUP = Duration.ofSeconds(20);

    @TempDir
    Path work;
    private Path store;

    @BeforeEach
    void createQueues() {
        store = work.resolve("store");
        try (Mikyu s = Mikyu.open(store)) {
            TxnFixture.create(s, 1, 1);
        }
    }

    private ChildProcess child(Map<String, String> props, String... args) throws Exception {
        String[] all = new String[args.length + 1];
        all[0] = args[0];
        all[1] = store.toString();
        System.arraycopy(args, 1, all, 2, args.length - 1);
        return ChildProcess.start(work, TxnChild.class, props, all);
    }

    /** The transaction of {@link TxnChild#build} is fully applied, each part exactly once. */
    private static void assertApplied(Mikyu s) {
        assertThat(payloads(s.log("a"))).containsExactly("a1", "a2");
        assertThat(payloads(s.log("b"))).containsExactly("b1");
        assertThat(ready(s.taskQueue("out"))).containsExactly("o1");
        assertThat(s.taskQueue("jobs").counts().depth()).as("job-0 acked").isZero();
        SharedGroup sg = s.log("src").sharedGroup("sg", sharedConfig());
        assertThat(sg.counts().depth()).as("src-0 acked").isZero();
        assertThat(sg.committedOffset()).isEqualTo(1);
        assertThat(s.log("src").group("ex").position()).isEqualTo(1);
        assertThat(s.preparedTransactions()).isEmpty();
    }

    /** Nothing of it: job-0 and src-0 still leased by the dead child. */
    private static void assertNothingApplied(Mikyu s) {
        assertThat(s.log("a").endOffset()).isZero();
        assertThat(s.log("b").endOffset()).isZero();
        assertThat(s.taskQueue("out").counts().depth()).isZero();
        assertThat(s.taskQueue("jobs").counts().inFlight()).isEqualTo(1);
        SharedGroup sg = s.log("src").sharedGroup("sg", sharedConfig());
        assertThat(sg.counts().inFlight()).isEqualTo(1);
        assertThat(sg.committedOffset()).isZero();
        assertThat(s.log("src").groups()).doesNotContain("ex");
        assertThat(s.preparedTransactions()).isEmpty();
    }

    /** Reopens twice: recovery must leave the same state the second time (nothing applied twice). */
    private void reopenTwiceAndCheck(java.util.function.Consumer<Mikyu> check) {
        for (int i = 0; i < 2; i++) {
            try (Mikyu s = Mikyu.open(store)) {
                check.accept(s);
            }
        }
    }

    @Test
    void aTransactionKilledWhileBeingBuiltLeavesNothing() throws Exception {
        try (ChildProcess c = child(Map.of(), "txn", "build", "log", "60000")) {
            c.awaitLine("BUILT", STARTUP);
            c.sigkill();
        }
        reopenTwiceAndCheck(TransactionCrashTest::assertNothingApplied);
    }

    @Test
    void aCrashRightAfterTheCommitRecordIsDurableIsCompletedByRecovery() throws Exception {
        try (ChildProcess c = child(Map.of(CRASH_POINT, "after-commit-record"), "txn", "commit", "log", "60000")) {
            assertThat(c.waitForExit(STARTUP)).as("halted at the crash point; stderr:\n%s", c.stderrText())
                    .isEqualTo(137);
            assertThat(c.lines("COMMITTING")).hasSize(1);
            assertThat(c.lines("COMMITTED")).as("commit never returned").isEmpty();
        }
        reopenTwiceAndCheck(TransactionCrashTest::assertApplied);
    }

    @ParameterizedTest(name = "{0} target written first")
    @ValueSource(strings = {"log", "task", "shared"})
    void aCrashAfterTheFirstQueueWasWrittenIsCompletedWithoutDuplicatingThatQueue(String order) throws Exception {
        try (ChildProcess c = child(Map.of(CRASH_POINT, "after-first-write"), "txn", "commit", order, "60000")) {
            assertThat(c.waitForExit(STARTUP)).as("halted at the crash point; stderr:\n%s", c.stderrText())
                    .isEqualTo(137);
            assertThat(c.lines("COMMITTED")).isEmpty();
        }
        reopenTwiceAndCheck(TransactionCrashTest::assertApplied);
    }

    /**
     * A transaction that enqueues to and acks on the same task queue makes two writes to that queue's log, handed to
     * the group-commit writer one after the other ({@code GroupCommitWriter.appendAll} offers them separately), so
     * a cycle can take the first without the second. A process killed between the two cycles leaves the enqueue
     * (stamped with the transaction id) without the ack. The crash point {@code after-first-write} stops the child
     * after exactly the first write request (the enqueue), which is that state. Recovery must still apply the ack.
     */
    @Test
    void aCommittedTransactionWhoseSecondWriteToOneQueueWasLostIsCompletedByRecovery() throws Exception {
        try (ChildProcess c = child(Map.of(CRASH_POINT, "after-first-write"), "txn", "commit", "samequeue", "60000")) {
            assertThat(c.waitForExit(STARTUP)).as("halted at the crash point; stderr:\n%s", c.stderrText())
                    .isEqualTo(137);
        }
        Path segment = StoreFiles.segments(store.resolve("task").resolve("jobs")).get(0);
        List<StoreFiles.Batch> batches = StoreFiles.batches(segment);
        assertThat(batches).as("job-0, its lease, then the transaction's enqueue; its ack never written")
                .hasSize(3);

        reopenTwiceAndCheck(s -> {
            assertThat(payloads(s.log("a"))).containsExactly("a1");
            assertThat(ready(s.taskQueue("jobs"))).as("the follow-up, once").containsExactly("follow-up");
            assertThat(s.taskQueue("jobs").counts().inFlight()).as("job-0 was acked by the transaction").isZero();
        });
    }

    @Test
    void aTransactionKilledAfterCommitReturnedIsThereAfterReopen() throws Exception {
        try (ChildProcess c = child(Map.of(), "txn", "commit", "log", "60000")) {
            c.awaitLine("COMMITTED", STARTUP);
            c.sigkill();
        }
        reopenTwiceAndCheck(TransactionCrashTest::assertApplied);
    }

    @Test
    void aPreparedTransactionSurvivesASigkillInDoubtAndCanThenBeCommitted() throws Exception {
        byte[] xid = "xa-crash-1".getBytes(StandardCharsets.UTF_8);
        long leaseEnds;
        // A lease long enough for the child to prepare on a loaded machine (its end is passed on a stepped clock
        // below, not by waiting): a lease that ran out before the prepare makes the prepare fail, as it must.
        try (ChildProcess c = child(Map.of(), "prepare", TxnFixture.hex(xid), "60000")) {
            c.awaitLine("PREPARED", STARTUP);
            c.sigkill();
            leaseEnds = Long.parseLong(c.lines("LEASED").get(0).split(" ")[1]);
        }
        // Reopened on a clock a second past the child's lease (the child's steady clock reads as wall time).
        SteppableTimeSource afterTheLease = new SteppableTimeSource(Math.max(System.currentTimeMillis(),
                leaseEnds + 1_000));
        try (Mikyu s = Mikyu.open(store, EngineConfig.builder().timeSource(afterTheLease).build())) {
            assertThat(s.preparedTransactions()).singleElement().isEqualTo(xid);
            assertThat(s.log("a").endOffset()).isZero();
            assertThat(s.taskQueue("out").counts().depth()).isZero();
            assertThat(s.taskQueue("jobs").dequeue(1, TxnFixture.LONG_LEASE, Duration.ZERO, null))
                    .as("the held task stays held after its lease").isEmpty();
            SharedGroup sg = s.log("src").sharedGroup("sg", sharedConfig());
            assertThat(sg.fetch(1, TxnFixture.LONG_LEASE, Duration.ZERO))
                    .as("the held record stays held after its lease").isEmpty();
            assertThat(s.taskQueue("jobs").counts().inFlight()).isEqualTo(1);
        }
        try (Mikyu s = Mikyu.open(store)) {
            assertThat(s.preparedTransactions()).singleElement().isEqualTo(xid);
            s.commitPrepared(xid);
            assertApplied(s);
        }
        reopenTwiceAndCheck(TransactionCrashTest::assertApplied);
    }

    @Test
    void aCrashWhileApplyingCommitPreparedIsCompletedByRecovery() throws Exception {
        byte[] xid = "xa-crash-2".getBytes(StandardCharsets.UTF_8);
        try (ChildProcess c = child(Map.of(CRASH_POINT, "after-first-write"), "prepare", TxnFixture.hex(xid),
                "60000", "commit")) {
            assertThat(c.waitForExit(STARTUP)).as("halted at the crash point; stderr:\n%s", c.stderrText())
                    .isEqualTo(137);
            assertThat(c.lines("PREPARED")).hasSize(1);
            assertThat(c.lines("COMMITTED")).isEmpty();
        }
        reopenTwiceAndCheck(TransactionCrashTest::assertApplied);
    }

    /**
     * A child commits transactions continuously (each appends its sequence number to a and b and enqueues it to
     * out) and is SIGKILLed at a random moment, several times; after every reopen the three queues hold the same
     * sequence numbers, each once, including every one whose commit returned.
     */
    @Test
    void repeatedSigkillsDuringContinuousTransactionsNeverSplitOrDuplicateOne() throws Exception {
        SplittableRandom random = new SplittableRandom(System.nanoTime());
        long nextSeq = 0;
        Set<Long> confirmed = new HashSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        for (int iteration = 0; iteration < 5 && System.nanoTime() < deadline; iteration++) {
            int threads = 1 + iteration % 2;
            try (ChildProcess c = child(Map.of(), "loop", Long.toString(nextSeq), Integer.toString(threads))) {
                int commits = 1 + random.nextInt(40);
                // the child goes on committing while the kill is sent: it lands at an arbitrary point of a commit
                c.awaitLines(l -> l.startsWith("COMMITTED"), commits, STARTUP);
                c.sigkill();
                for (String line : c.lines("COMMITTED")) {
                    confirmed.add(Long.parseLong(line.split(" ")[1]));
                }
            }
            try (Mikyu s = Mikyu.open(store)) {
                List<Long> a = seqs(payloads(s.log("a")));
                List<Long> b = seqs(payloads(s.log("b")));
                List<Long> out = seqs(ready(s.taskQueue("out")));
                String when = "after kill #" + (iteration + 1);
                assertThat(a).as("a has no duplicates " + when).doesNotHaveDuplicates();
                assertThat(b).as("b has no duplicates " + when).doesNotHaveDuplicates();
                assertThat(out).as("out has no duplicates " + when).doesNotHaveDuplicates();
                assertThat(new TreeSet<>(b)).as("b holds the same transactions as a " + when)
                        .isEqualTo(new TreeSet<>(a));
                assertThat(new TreeSet<>(out)).as("out holds the same transactions as a " + when)
                        .isEqualTo(new TreeSet<>(a));
                assertThat(a).as("every commit that returned is there " + when).containsAll(confirmed);
                assertThat(s.taskQueue("out").counts().depth()).isEqualTo(out.size());
                nextSeq = a.stream().mapToLong(Long::longValue).max().orElse(nextSeq - 1) + 1;
                nextSeq = Math.max(nextSeq, confirmed.stream().mapToLong(Long::longValue).max().orElse(-1) + 1);
            }
        }
        assertThat(confirmed).as("the children committed something").isNotEmpty();
    }

    private static List<Long> seqs(List<String> payloads) {
        List<Long> out = new ArrayList<>(payloads.size());
        for (String p : payloads) {
            out.add(Long.parseLong(p));
        }
        return out;
    }
}
