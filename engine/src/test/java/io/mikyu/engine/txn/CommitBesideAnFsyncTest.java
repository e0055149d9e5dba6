package io.mikyu.engine.txn;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.StorageFailedException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.mikyu.engine.txn.TxnFixture.LONG_LEASE;
import static io.mikyu.engine.txn.TxnFixture.taskConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The transaction log is fsynced beside the writer: a COMMIT that arrives while another COMMIT's fsync is in
 * progress is written and fsynced at once, beside it, instead of waiting for it to end (on real files, the fsyncs
 * held by the fault seam). Neither commit returns before an fsync covering its record ended, and an fsync that fails
 * fails the commits it covered and stops the transaction log.
 */
@Timeout(120)
class CommitBesideAnFsyncTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path data;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().flushInterval(Duration.ofHours(1))
                .housekeepingInterval(Duration.ofHours(1)).meterRegistry(meters).build());
    }

    private Path txnFiles() {
        return data.toAbsolutePath().normalize().resolve("txn");
    }

    private double behindFsync() {
        return meters.get("mikyu.engine.sync.behind.fsync").functionCounter().count();
    }

    private static void prepare(Mikyu store, String xid, String message) {
        store.beginTransaction().enqueue("out", Task.of(message)).prepare(xid.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aCommitArrivingDuringAnotherCommitsFsyncIsFsyncedBesideIt() throws Exception {
        ExecutorService calls = Executors.newFixedThreadPool(2);
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = open()) {
            TaskQueue out = store.createTaskQueue("out", taskConfig());
            prepare(store, "a", "from a");
            prepare(store, "b", "from b");
            faults.holdForces(f -> f.startsWith(txnFiles()));
            try {
                CompletableFuture<Void> a = CompletableFuture.runAsync(
                        () -> store.commitPrepared("a".getBytes(StandardCharsets.UTF_8)), calls);
                await().atMost(DEADLINE).until(() -> faults.heldForces() == 1);
                CompletableFuture<Void> b = CompletableFuture.runAsync(
                        () -> store.commitPrepared("b".getBytes(StandardCharsets.UTF_8)), calls);
                // b's fsync started while a's is still in progress: it did not wait for it to end
                await().atMost(DEADLINE).until(() -> faults.heldForces() == 2);
                assertThat(a).as("not acknowledged before an fsync covering it ended").isNotDone();
                assertThat(b).isNotDone();

                faults.releaseForces();
                CompletableFuture.allOf(a, b).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            } finally {
                faults.releaseForces();
            }
            assertThat(behindFsync()).as("no commit waited behind another's fsync").isZero();
            assertThat(store.preparedTransactions()).isEmpty();
            assertThat(out.dequeue(2, LONG_LEASE, Duration.ZERO, null)).extracting(LeasedTask::payloadAsString)
                    .containsExactlyInAnyOrder("from a", "from b");
        } finally {
            calls.shutdownNow();
        }
    }

    @Test
    void aFailedFsyncFailsTheCommitItCoveredAndStopsTheTransactionLog() throws Exception {
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = open()) {
            TaskQueue out = store.createTaskQueue("out", taskConfig());
            faults.failForces(f -> f.startsWith(txnFiles()));

            assertThatThrownBy(() -> store.beginTransaction().enqueue("out", Task.of("lost?")).enqueue("out",
                    Task.of("lost too?")).commit()).isInstanceOf(MikyuException.class).hasMessageContaining("fsync");
            assertThat(out.counts().depth()).as("nothing of it was written to the queue").isZero();

            faults.heal();
            // The kernel may have dropped the record's pages: nothing more is acknowledged on top of it.
            assertThatThrownBy(() -> store.beginTransaction().enqueue("out", Task.of("later")).enqueue("out",
                    Task.of("later too")).commit()).isInstanceOf(StorageFailedException.class);
        }
    }

    @Test
    void aCommitWhoseFsyncFailedIsNotAppliedByTheNextOpen() throws Exception {
        try (FaultyFileChannels faults = FaultyFileChannels.install(data)) {
            try (Mikyu store = open()) {
                store.createTaskQueue("out", taskConfig());
                prepare(store, "a", "from a");
                faults.failForces(f -> f.startsWith(txnFiles()));
                assertThatThrownBy(() -> store.commitPrepared("a".getBytes(StandardCharsets.UTF_8)))
                        .isInstanceOf(MikyuException.class).hasMessageContaining("fsync");
            }
            faults.heal();
            // Told the commit failed, its caller may do it again: the COMMIT must not be applied behind its back.
            try (Mikyu store = open()) {
                assertThat(xids(store)).containsExactly("a");
                assertThat(store.taskQueue("out").counts().depth()).isZero();
            }
        }
    }

    /**
     * The n-th fsync of the transaction log fails while the next one, of a later COMMIT, is in progress: whichever
     * ends first, after a reopen each commit is applied exactly when its caller was told it succeeded, and is still
     * in doubt otherwise.
     */
    @Test
    void aFailedFsyncBesideAnotherLeavesEachCommitAsItsCallerWasTold() throws Exception {
        ExecutorService calls = Executors.newFixedThreadPool(2);
        try (FaultyFileChannels faults = FaultyFileChannels.install(data)) {
            List<CompletableFuture<Void>> commits = new java.util.ArrayList<>();
            try (Mikyu store = open()) {
                store.createTaskQueue("out", taskConfig());
                prepare(store, "a", "from a");
                prepare(store, "b", "from b");
                faults.holdForces(f -> f.startsWith(txnFiles()));
                faults.failForce(1); // a's COMMIT's fsync, the next one
                try {
                    commits.add(CompletableFuture.runAsync(
                            () -> store.commitPrepared("a".getBytes(StandardCharsets.UTF_8)), calls));
                    await().atMost(DEADLINE).until(() -> faults.heldForces() == 1);
                    commits.add(CompletableFuture.runAsync(
                            () -> store.commitPrepared("b".getBytes(StandardCharsets.UTF_8)), calls));
                    await().atMost(DEADLINE).until(() -> faults.heldForces() == 2);
                } finally {
                    faults.releaseForces();
                }
                await().atMost(DEADLINE).until(() -> commits.stream().allMatch(CompletableFuture::isDone));
                assertThat(faults.failedForces()).isEqualTo(1);
                CompletableFuture<Void> b = commits.get(1);
                assertThat(commits.get(0)).as("a's fsync failed: a is not acknowledged unless a later fsync ended first")
                        .matches(f -> f.isCompletedExceptionally() || !b.isCompletedExceptionally());
            }
            faults.heal();
            try (Mikyu store = open()) {
                List<String> out = store.taskQueue("out").dequeue(2, LONG_LEASE, Duration.ZERO, null).stream()
                        .map(LeasedTask::payloadAsString).toList();
                List<String> inDoubt = xids(store);
                for (String x : List.of("a", "b")) {
                    boolean acknowledged = !commits.get(x.equals("a") ? 0 : 1).isCompletedExceptionally();
                    assertThat(out.contains("from " + x)).as("%s applied exactly when acknowledged", x)
                            .isEqualTo(acknowledged);
                    assertThat(inDoubt.contains(x)).as("%s in doubt exactly when not acknowledged", x)
                            .isEqualTo(!acknowledged);
                }
            }
        } finally {
            calls.shutdownNow();
        }
    }

    private static List<String> xids(Mikyu store) {
        return store.inDoubtTransactions().stream().map(p -> new String(p.xid(), StandardCharsets.UTF_8)).toList();
    }
}
