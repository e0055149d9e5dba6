package io.mikyu.engine.txn;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.PreparedAhead;
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
 * The fsync of a PREPARE record written ahead runs beside the writer, not in its cycle: a synchronous append (another
 * transaction's COMMIT, any sync write) submitted while that fsync is in progress does not wait for it. The record is
 * still durable before {@code confirm} returns, and an fsync that fails fails the confirm and stops the transaction
 * log, as the writer's own failed fsync does.
 */
@Timeout(120)
class PrepareAheadFsyncTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path data;

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().flushInterval(Duration.ofHours(1))
                .housekeepingInterval(Duration.ofHours(1)).build());
    }

    private Path txnFiles() {
        return data.toAbsolutePath().normalize().resolve("txn");
    }

    private static PreparedAhead ackAndSendAhead(Mikyu store, String xid) throws InterruptedException {
        TaskQueue jobs = store.createTaskQueue("jobs", taskConfig());
        store.createTaskQueue("out", taskConfig());
        jobs.enqueue(Task.of("job"));
        LeasedTask job = jobs.dequeue(1, LONG_LEASE, Duration.ZERO, null).get(0);
        return store.beginTransaction().ack("jobs", job.token()).enqueue("out", Task.of("result"))
                .prepareAhead(xid.getBytes(StandardCharsets.UTF_8), "app");
    }

    @Test
    void aSyncAppendDoesNotWaitForTheFsyncOfARecordWrittenAhead() throws Exception {
        ExecutorService calls = Executors.newFixedThreadPool(2);
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = open()) {
            LogQueue q = store.createLog("q", LogQueueConfig.defaults().withDurability(Durability.SYNC));
            faults.holdForces(f -> f.startsWith(txnFiles()));
            try {
                PreparedAhead ahead = ackAndSendAhead(store, "slow-disk");
                await().atMost(DEADLINE).until(() -> faults.heldForces() == 1);
                CompletableFuture<Void> confirm = CompletableFuture.runAsync(ahead::confirm, calls);

                // The PREPARE's fsync is still in progress: a sync append of another file is written and fsynced.
                CompletableFuture<Long> append = CompletableFuture.supplyAsync(
                        () -> q.append(Entry.of("not behind the PREPARE")), calls);
                assertThat(append.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isZero();
                assertThat(confirm).as("confirm waits for the record's fsync").isNotDone();

                faults.releaseForces();
                confirm.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            } finally {
                faults.releaseForces();
            }
            assertThat(store.preparedTransactions()).hasSize(1);
        }
    }

    @Test
    void aFailedFsyncOfARecordWrittenAheadFailsTheConfirmAndStopsTheTransactionLog() throws Exception {
        try (FaultyFileChannels faults = FaultyFileChannels.install(data);
             Mikyu store = open()) {
            faults.failForces(f -> f.startsWith(txnFiles()));
            PreparedAhead ahead = ackAndSendAhead(store, "bad-disk");

            assertThatThrownBy(ahead::confirm).isInstanceOf(MikyuException.class).hasMessageContaining("fsync");
            assertThat(faults.failedForces()).isEqualTo(1);
            assertThat(store.preparedTransactions()).as("not prepared").isEmpty();

            faults.heal();
            // The kernel may have dropped the record's pages: nothing more is acknowledged on top of it.
            assertThatThrownBy(() -> store.beginTransaction().enqueue("out", Task.of("later")).commit())
                    .isInstanceOf(StorageFailedException.class);
        }
    }
}
