package io.mikyu.engine.recovery;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.files.PowerLossFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A power loss right after an acknowledged operation on a new store: every directory holding what was acknowledged
 * must itself be durable, not only the files in it (a directory made and never fsynced into its parent is lost
 * with everything in it, whatever was fsynced inside). The fault campaign's {@code PowerLossTest} cuts at random
 * points; these are the cases it found.
 */
@Timeout(60)
class PowerLossRecoveryTest {

    @TempDir
    Path tmp;

    /** Runs {@code work} on a new store, cuts the power after it, and opens the store on what the disk kept. */
    private Mikyu afterPowerLoss(Consumer<Mikyu> work) throws Exception {
        Path data = tmp.resolve("data");
        java.nio.file.Files.createDirectories(data);
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, tmp.resolve("durable"))) {
            Mikyu store = Mikyu.open(data);
            try {
                work.accept(store);
            } finally {
                disk.cut();
                try {
                    store.close();
                } catch (RuntimeException expectedOnADeadDisk) {
                    // nothing it writes now reaches the disk
                }
            }
            disk.materialize(tmp.resolve("after"));
        }
        return Mikyu.open(tmp.resolve("after"));
    }

    @Test
    void aPreparedTransactionOfANewStoreStaysPrepared() throws Exception {
        byte[] xid = "branch-1".getBytes(StandardCharsets.UTF_8);
        try (Mikyu store = afterPowerLoss(s -> {
            s.createTaskQueue("in", TaskQueueConfig.defaults().withDurability(Durability.SYNC))
                    .enqueue(Task.of("work"));
            try {
                LeasedTask t = s.taskQueue("in").dequeue(Duration.ZERO);
                s.beginTransaction().ack("in", t.token()).prepare(xid);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        })) {
            assertThat(store.preparedTransactions()).as("the prepared branch after the power loss")
                    .containsExactly(xid);
        }
    }

    @Test
    void aSharedGroupMadeBeforeThePowerLossIsStillThere() throws Exception {
        try (Mikyu store = afterPowerLoss(s -> {
            LogQueue q = s.createLog("events", LogQueueConfig.defaults().withDurability(Durability.SYNC));
            q.append(Entry.of("one"));
            q.sharedGroup("workers", SharedGroupConfig.defaults());
        })) {
            assertThat(store.log("events").groups()).as("the shared group after the power loss")
                    .containsExactly("workers");
        }
    }
}
