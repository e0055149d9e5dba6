package io.mikyu.engine.faults;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.files.PowerLossFileSystem;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fault campaign: the power lost while a task queue with a backlog beyond its window takes ledger checkpoints
 * ({@code ledger.ckpt}, written by housekeeping every few milliseconds here). Each cycle starts from a store closed
 * cleanly (its checkpoint holds cold runs), works on it under {@link PowerLossFileSystem} (SYNC enqueues, takes,
 * SYNC acks, nacks) and cuts the power before a random write or fsync. The disk then keeps an arbitrary share of
 * every file's unsynced bytes (a log's tail torn at any byte); in a third of the cycles the checkpoint is also torn
 * (its name made durable before its data, as a filesystem without ordering may), in another third replaced by the
 * newest one written, whole, while the log's newest segment loses an arbitrary tail, fsynced bytes included (a
 * checkpoint ahead of its log: a disk that lies about fsync).
 *
 * <p>Afterwards: the queue ends exactly as a full replay of the same log (the checkpoint deleted) ends, so a
 * checkpoint that is torn or ahead is not trusted; nothing is there twice or was never enqueued; and, unless
 * fsynced bytes were taken, no acknowledged enqueue whose ack was not acknowledged is lost and no acknowledged ack
 * comes back.
 */
@Tag("faults")
class CheckpointPowerLossTest {

    private static final int CYCLES = Integer.getInteger("mikyu.faults.cycles", 12);
    private static final long SEED = Long.getLong("mikyu.faults.seed", System.nanoTime());
    private static final int STEPS = 80;
    private static final String QUEUE = "jobs";
    private static final String CHECKPOINT = "ledger.ckpt";

    @TempDir
    Path tmp;

    private static EngineConfig config(SteppableTimeSource clock) {
        return EngineConfig.builder().taskWindow(8).housekeepingInterval(Duration.ofMillis(5))
                .flushInterval(Duration.ofMillis(20)).preallocateBytes(16 * 1024).minFreeDiskBytes(0)
                .timeSource(clock).build();
    }

    /** What the workload was told: acknowledged enqueues (payload) and acknowledged acks, and what it tried. */
    private static final class Ledger {
        final Set<String> enqueued = new HashSet<>();
        final Set<String> acked = new HashSet<>();
        final Set<String> attempted = new HashSet<>();
    }

    @Test
    void aCheckpointTornOrAheadOfALogThatLostItsTailIsNotTrusted() throws Exception {
        long eventsPerRun = 0;
        int[] modes = new int[3];
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            long seed = SEED + cycle;
            Random random = new Random(seed);
            long cutAt = eventsPerRun == 0 ? 0 : 1 + random.nextLong(eventsPerRun);
            int mode = cycle % 3; // 0: as the disk kept it, 1: the checkpoint torn, 2: the newest one, whole
            String what = "cycle " + cycle + " (-Dmikyu.faults.seed=" + SEED + ", cut at "
                    + (cutAt == 0 ? "the end" : "event " + cutAt) + ", checkpoint "
                    + new String[] {"as kept", "torn", "newest, whole"}[mode] + ")";
            Path dir = tmp.resolve("cycle-" + cycle);
            Ledger ledger = new Ledger();
            long events = runUntilThePowerGoes(dir, random, cutAt, ledger, mode);
            if (cutAt == 0) {
                eventsPerRun = Math.max(1, events);
            }
            modes[mode]++;
            try {
                verify(dir, ledger, mode == 2);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(what + ": " + e.getMessage(), e);
            }
            deleteRecursively(dir); // a cycle's copies are a few MiB: keep the disk use flat over a long run
        }
        System.out.printf("checkpoint power loss: %d cycles (%d as kept, %d torn, %d ahead), %d writes and fsyncs"
                + " a run, seed %d%n", CYCLES, modes[0], modes[1], modes[2], eventsPerRun, SEED);
    }

    private long runUntilThePowerGoes(Path dir, Random random, long cutAt, Ledger ledger, int mode)
            throws Exception {
        Path data = dir.resolve("data");
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        // Before: a backlog beyond the window, some of it finished, closed cleanly (a checkpoint with cold runs).
        try (Mikyu store = Mikyu.open(data, config(clock))) {
            TaskQueue q = store.createTaskQueue(QUEUE, TaskQueueConfig.defaults().withDurability(Durability.SYNC));
            for (int i = 0; i < 40; i++) {
                enqueue(q, "before-" + i, ledger);
            }
            for (LeasedTask t : q.dequeue(5, Duration.ofMinutes(1), Duration.ZERO, null)) {
                q.ack(t.token());
                ledger.acked.add(text(t));
            }
        }
        long events;
        byte[] newestCheckpoint;
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, dir.resolve("disk"))) {
            if (cutAt > 0) {
                disk.cutAtEvent(cutAt);
            }
            Mikyu store = Mikyu.open(data, config(clock));
            try {
                TaskQueue q = store.taskQueue(QUEUE);
                int next = 0;
                for (int step = 0; step < STEPS; step++) {
                    int op = random.nextInt(10);
                    if (op < 5) {
                        enqueue(q, "during-" + next++, ledger);
                    } else {
                        List<LeasedTask> taken = q.dequeue(1 + random.nextInt(3), Duration.ofMinutes(1),
                                Duration.ZERO, null);
                        for (LeasedTask t : taken) {
                            if (op == 9) {
                                q.nack(t.token(), Duration.ZERO, "again");
                            } else {
                                q.ack(t.token());
                                ledger.acked.add(text(t));
                            }
                        }
                    }
                    clock.advance(Duration.ofMillis(1));
                    Thread.onSpinWait();
                }
            } catch (RuntimeException expectedOnceThePowerIsGone) {
                assertThat(disk.isCut()).as("failed with the power on: " + expectedOnceThePowerIsGone).isTrue();
            } finally {
                disk.cut(); // a run to its end loses the power after it
                try {
                    store.close();
                } catch (RuntimeException closingOnADeadDisk) {
                    // expected
                }
            }
            events = disk.events();
            Path live = taskDir(data);
            newestCheckpoint = Files.exists(live.resolve(CHECKPOINT)) ? Files.readAllBytes(live.resolve(CHECKPOINT))
                    : null;
            Random share = new Random(random.nextLong());
            Map<Path, Double> shares = new HashMap<>();
            disk.materializeTorn(dir.resolve("after"), file -> shares.computeIfAbsent(file, f -> share.nextDouble()));
        }
        Path kept = taskDir(dir.resolve("after")).resolve(CHECKPOINT);
        if (mode == 1 && Files.exists(kept) && Files.size(kept) > 1) {
            StoreFiles.truncate(kept, 1 + random.nextInt((int) Files.size(kept) - 1));
        } else if (mode == 2 && newestCheckpoint != null && Files.isDirectory(kept.getParent())) {
            Files.write(kept, newestCheckpoint);
            // And the log loses part of its newest segment, fsynced or not: the checkpoint is ahead of it.
            List<Path> segments = StoreFiles.segments(kept.getParent());
            Path last = segments.get(segments.size() - 1);
            StoreFiles.truncate(last, random.nextLong(Files.size(last) + 1));
        }
        return events;
    }

    private static void deleteRecursively(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static Path taskDir(Path data) {
        return data.resolve("task").resolve(QUEUE);
    }

    private static void enqueue(TaskQueue q, String payload, Ledger ledger) {
        ledger.attempted.add(payload);
        q.enqueue(Task.of(payload), Durability.SYNC);
        ledger.enqueued.add(payload);
    }

    private static String text(LeasedTask t) {
        return new String(t.payload(), StandardCharsets.UTF_8);
    }

    /** {@code lostSynced}: the log lost fsynced bytes too, so only what holds whatever the log lost is checked. */
    private void verify(Path dir, Ledger ledger, boolean lostSynced) throws Exception {
        Path withCheckpoint = dir.resolve("after");
        Path replayed = dir.resolve("replayed");
        StoreFiles.copyDirectory(withCheckpoint, replayed);
        Files.deleteIfExists(taskDir(replayed).resolve(CHECKPOINT));

        List<String> restored = everything(withCheckpoint);
        List<String> fullReplay = everything(replayed);
        assertThat(restored).as("the queue after the checkpoint (or its rejection) is what a full replay gives")
                .containsExactlyElementsOf(fullReplay);
        assertThat(new HashSet<>(restored)).as("nothing twice").hasSize(restored.size());
        assertThat(ledger.attempted).as("nothing that was never enqueued").containsAll(restored);
        if (lostSynced) {
            return;
        }
        Set<String> mustBeThere = new HashSet<>(ledger.enqueued);
        mustBeThere.removeAll(ledger.acked);
        assertThat(restored).as("every acknowledged enqueue not acked").containsAll(mustBeThere);
        assertThat(restored).as("no acknowledged ack comes back").doesNotContainAnyElementsOf(ledger.acked);
    }

    /** Every task the queue (and its dead-letter queue) holds, leases run out: in the order they are handed out. */
    private static List<String> everything(Path data) throws Exception {
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        clock.advance(Duration.ofDays(1));
        List<String> out = new ArrayList<>();
        try (Mikyu store = Mikyu.open(data, config(clock))) {
            for (String name : List.of(QUEUE, QUEUE + "/dlq")) {
                if (!store.list(io.mikyu.engine.QueueKind.TASK).contains(name)) {
                    continue;
                }
                TaskQueue q = store.taskQueue(name);
                clock.advance(Duration.ofDays(1)); // every lease at the power loss has run out, and its backoff
                while (true) {
                    List<LeasedTask> t = q.dequeue(1, Duration.ofMinutes(1), Duration.ZERO, null);
                    if (t.isEmpty()) {
                        break;
                    }
                    out.add(text(t.get(0)));
                    q.ack(t.get(0).token());
                }
            }
        }
        return out;
    }
}
