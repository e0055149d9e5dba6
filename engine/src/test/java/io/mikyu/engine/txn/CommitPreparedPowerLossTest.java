package io.mikyu.engine.txn;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.internal.files.PowerLossFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import static io.mikyu.engine.txn.TxnFixture.LONG_LEASE;
import static io.mikyu.engine.txn.TxnFixture.ready;
import static io.mikyu.engine.txn.TxnFixture.taskConfig;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A prepared branch's commit writes its COMMIT record and its queue writes in one writer cycle, the queue writes
 * unsynced. Whatever point the power goes at, and whichever files the disk had written back beyond their fsyncs,
 * the branch is afterwards either still prepared (listed, nothing of it visible, its consumed task held) or
 * committed with every effect exactly once; and a commit that returned is committed. The images that keep one
 * side's unsynced writes catch a wrong order: queue writes on disk before their COMMIT record (the branch would
 * be in doubt with its message visible), or an APPLIED record on disk before the writes it vouches for (the
 * message would be lost).
 */
@Timeout(180)
class CommitPreparedPowerLossTest {

    private static final EngineConfig CONFIG = EngineConfig.builder()
            .flushInterval(Duration.ofMillis(20))
            .preallocateBytes(16 * 1024)
            .minFreeDiskBytes(0)
            .build();
    private static final byte[] XID = "branch".getBytes(StandardCharsets.UTF_8);
    /** How long a run goes on after the commit, so the flusher and the APPLIED record meet the cut too. */
    private static final long AFTER_COMMIT_NANOS = Duration.ofMillis(150).toNanos();

    /** The disk images checked after each cut: what was fsynced, plus one side's unsynced writes. */
    private static final List<Image> IMAGES = List.of(
            new Image("fsynced only", p -> false),
            new Image("queues written back", p -> p.startsWith("task") || p.startsWith("log")),
            new Image("transaction log written back", p -> p.startsWith("txn")));

    private record Image(String name, Predicate<Path> writtenBack) {
    }

    @TempDir
    Path tmp;

    @Test
    void atEveryCutTheBranchIsPreparedOrCommittedOnce() throws Exception {
        long events = run(tmp.resolve("uncut"), 0).events();
        assertThat(events).as("writes and fsyncs from the commit on").isGreaterThan(2);
        for (long cut = 1; cut <= events + 1; cut++) {
            Path dir = tmp.resolve("cut-" + cut);
            Run run = run(dir, cut);
            for (Image image : IMAGES) {
                String what = "cut at event " + cut + " of " + events + " (" + image.name() + "), commit "
                        + (run.returned() ? "returned" : "did not return");
                verify(dir.resolve(image.name().replace(' ', '-')), run.returned(), what);
            }
        }
    }

    /**
     * A task a transaction wrote unsynced is handed out only once it is fsynced: after a power loss right after the
     * dequeue, the task the consumer holds is still the task at the id its token names. Were it lost, recovery
     * would write it again under another id (here 0, where an unsynced plain enqueue before it stood), and an ack
     * of the consumer's token, committed in a transaction, would miss it: the message would come back.
     */
    @Test
    void aTaskATransactionWroteIsLeasedOnlyOnceItIsDurable() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("lease/data"));
        long leasedId;
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, tmp.resolve("lease/durable"))) {
            Mikyu store = Mikyu.open(data, EngineConfig.builder().flushInterval(Duration.ofHours(1))
                    .minFreeDiskBytes(0).build());
            try {
                TaskQueue out = store.createTaskQueue("out", taskConfig()); // ASYNC, as a JMS queue
                out.enqueue(Task.of("plain"), Durability.ASYNC);
                store.beginTransaction().enqueue("out", Task.of("m")).prepare(XID);
                store.commitPrepared(XID);
                LeasedTask m = out.dequeue(2, LONG_LEASE, Duration.ZERO, null).stream()
                        .filter(t -> t.payloadAsString().equals("m")).findFirst().orElseThrow();
                leasedId = m.id();
            } finally {
                disk.cut();
                closeQuietly(store);
            }
            disk.materialize(tmp.resolve("lease/after"));
        }
        try (Mikyu store = Mikyu.open(tmp.resolve("lease/after"), CONFIG)) {
            TaskQueue out = store.taskQueue("out");
            assertThat(out.counts().depth()).as("the committed task survives").isGreaterThanOrEqualTo(1);
            for (LeasedTask t : out.dequeue(10, LONG_LEASE, Duration.ZERO, null)) {
                if (t.payloadAsString().equals("m")) {
                    assertThat(t.id()).as("the task the consumer held keeps its id").isEqualTo(leasedId);
                }
            }
        }
    }

    private record Run(long events, boolean returned) {
    }

    /**
     * Prepares the branch (ack of a leased task, an enqueue), then commits it with the power going at
     * the {@code cut}-th write or fsync from there (0: after the run), and keeps the disk's images.
     */
    private Run run(Path dir, long cut) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        boolean returned = false;
        long events;
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, dir.resolve("durable"))) {
            Mikyu store = Mikyu.open(data, CONFIG);
            try {
                TaskQueue jobs = store.createTaskQueue("jobs", taskConfig().withDurability(Durability.SYNC));
                store.createTaskQueue("out", taskConfig());
                jobs.enqueue(Task.of("job"), Durability.SYNC);
                LeasedTask job = jobs.dequeue(1, LONG_LEASE, Duration.ZERO, null).get(0);
                // No log append: its write would be fsynced in the cycle's second pass, and the task queues' with it.
                store.beginTransaction().ack("jobs", job.token()).enqueue("out", Task.of("m")).prepare(XID);
                long start = disk.events();
                if (cut > 0) {
                    disk.cutAtEvent(cut);
                }
                try {
                    store.commitPrepared(XID);
                    returned = !disk.isCut();
                } catch (RuntimeException e) {
                    assertThat(disk.isCut()).as("the commit failed with the power on: " + e).isTrue();
                }
                long until = System.nanoTime() + AFTER_COMMIT_NANOS;
                while (!disk.isCut() && System.nanoTime() < until) {
                    // Time for the background writes after a commit (the flusher's fsync, the APPLIED record):
                    // they are among the cut points, and there is no event to await when none is cut.
                    Thread.sleep(5);
                }
                events = disk.events() - start;
            } finally {
                disk.cut();
                closeQuietly(store);
            }
            for (Image image : IMAGES) {
                disk.materialize(dir.resolve(image.name().replace(' ', '-')), image.writtenBack());
            }
        }
        return new Run(events, returned);
    }

    private static void verify(Path image, boolean returned, String what) throws Exception {
        try (Mikyu store = Mikyu.open(image, CONFIG)) {
            boolean inDoubt = store.preparedTransactions().stream().anyMatch(x -> Arrays.equals(x, XID));
            TaskQueue jobs = store.taskQueue("jobs");
            if (returned) {
                assertThat(inDoubt).as(what + ": a commit that returned holds").isFalse();
            }
            if (inDoubt) {
                assertThat(ready(store.taskQueue("out"))).as(what + ": nothing of a prepared branch visible")
                        .isEmpty();
                assertThat(jobs.counts().inFlight()).as(what + ": its consumed task held").isEqualTo(1);
                assertThat(jobs.dequeue(1, LONG_LEASE, Duration.ZERO, null)).as(what).isEmpty();
                store.commitPrepared(XID);
            }
            assertCommittedOnce(store, what);
        }
        try (Mikyu store = Mikyu.open(image, CONFIG)) {
            assertCommittedOnce(store, what + ", reopened");
        }
    }

    private static void assertCommittedOnce(Mikyu store, String what) {
        assertThat(store.preparedTransactions()).as(what).isEmpty();
        assertThat(ready(store.taskQueue("out"))).as(what + ": the message exactly once").containsExactly("m");
        assertThat(store.taskQueue("jobs").counts().depth()).as(what + ": the consumed task acked").isZero();
    }

    private static void closeQuietly(Mikyu store) {
        try {
            store.close(); // on a dead disk: what it writes now is lost, as are its errors
        } catch (RuntimeException ignored) {
            // expected
        }
    }
}
