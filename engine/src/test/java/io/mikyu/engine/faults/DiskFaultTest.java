package io.mikyu.engine.faults;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StorageFailedException;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fault campaign, scenario 5: disk faults. Each cycle runs one of the power-loss workloads on a fresh store through
 * {@link FaultyFileChannels} with one fault armed at a random (seeded) point: the disk full after N bytes (ENOSPC
 * until space returns), the k-th write failing (EIO), or the k-th fsync failing (EIO). Every write path the
 * workloads reach is in range: segment appends, seals and their index, queue.conf and the other small files,
 * offsets, the transaction log, compaction's rewrite, the move to a dead-letter queue.
 *
 * <p>Checks: an operation the fault hits fails with an exception that says why (no space, an I/O error, a stopped
 * queue); after the fault clears the store carries on, except a queue whose fsync failed, which refuses everything
 * with {@code StorageFailedException} until the store is reopened; reopened, the store holds everything acknowledged
 * and nothing acknowledged as finished comes back (the workload's checks).
 */
@Tag("faults")
class DiskFaultTest {

    private static final int CYCLES = Integer.getInteger("mikyu.faults.cycles", 12);
    private static final long SEED = Long.getLong("mikyu.faults.seed", System.nanoTime());
    private static final int STEPS_WITH_FAULT = 60;
    private static final int STEPS_AFTER = 20;

    private static final EngineConfig CONFIG = EngineConfig.builder()
            .flushInterval(Duration.ofMillis(50))
            .preallocateBytes(16 * 1024)
            .minFreeDiskBytes(0)
            .build();

    private enum Fault { DISK_FULL, WRITE_EIO, FSYNC_EIO }

    private static final List<Supplier<Workload>> ALL = List.of(
            LogAppendWorkload::new, TaskWorkload::new, DeadLetterWorkload::new, TwoPhaseWorkload::new,
            QueueLifecycleWorkload::new, CompactionWorkload::new);
    private static final List<Supplier<Workload>> WORKLOADS = ALL.stream()
            .filter(w -> w.get().name().contains(System.getProperty("mikyu.faults.workload", ""))).toList();

    @TempDir
    Path tmp;

    @Test
    void aFullOrFailingDiskNeverCostsWhatWasAcknowledged() throws Exception {
        Tally tally = new Tally();
        Map<String, Integer> failures = new TreeMap<>();
        long[][] perRun = new long[WORKLOADS.size()][];
        long started = System.nanoTime();
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            int kind = (cycle / Fault.values().length) % WORKLOADS.size();
            Fault fault = Fault.values()[cycle % Fault.values().length];
            long seed = SEED + cycle;
            Random random = new Random(seed);
            Workload workload = WORKLOADS.get(kind).get();
            Path data = tmp.resolve("cycle-" + cycle);
            Files.createDirectories(data);
            if (perRun[kind] == null) {
                perRun[kind] = measure(WORKLOADS.get(kind).get(), new Random(seed), tmp.resolve("measure-" + kind));
            }
            long[] run = perRun[kind]; // bytes, writes, fsyncs of a run without faults
            String what;
            boolean fsyncFailed;
            try (FaultyFileChannels disk = FaultyFileChannels.install(data)) {
                Mikyu store = Mikyu.open(data, CONFIG);
                what = "cycle " + cycle + " (" + workload.name() + ", " + arm(disk, fault, run, random)
                        + ", -Dmikyu.faults.seed=" + SEED + ")";
                try {
                    for (int i = 0; i < STEPS_WITH_FAULT; i++) {
                        try {
                            workload.step(store, random);
                        } catch (Exception e) {
                            failures.merge(fault + ": " + e.getClass().getSimpleName(), 1, Integer::sum);
                            assertSaysWhy(e, what + ", step " + i);
                        }
                    }
                    disk.heal(); // space returns, the disk answers again
                    fsyncFailed = disk.failedForces() > 0;
                    for (int i = 0; i < STEPS_AFTER; i++) {
                        try {
                            workload.step(store, random);
                        } catch (Exception e) {
                            // Only a queue whose fsync failed may still refuse (also inside a transaction).
                            if (!fsyncFailed || !causedBy(e, StorageFailedException.class)) {
                                throw new AssertionError(what + ": after the fault cleared, step " + i + " failed", e);
                            }
                        }
                    }
                } finally {
                    try {
                        store.close();
                    } catch (RuntimeException e) {
                        failures.merge(fault + ": close " + e.getClass().getSimpleName(), 1, Integer::sum);
                    }
                }
            }
            try (Mikyu store = Mikyu.open(data, CONFIG)) {
                workload.verify(store, tally, System.nanoTime());
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(what + ": after reopening: " + e.getMessage(), e);
            }
            Directories.deleteRecursively(data);
        }
        System.out.printf("DiskFaultTest: %d cycles, %s, failures seen %s, %d s (seed %d)%n", CYCLES, tally,
                failures, Duration.ofNanos(System.nanoTime() - started).toSeconds(), SEED);
        assertThat(tally.lost).isZero();
        assertThat(tally.reappeared).isZero();
    }

    /** Runs a workload without faults: how many bytes, writes and fsyncs it makes. */
    private static long[] measure(Workload workload, Random random, Path data) throws Exception {
        Files.createDirectories(data);
        try (FaultyFileChannels disk = FaultyFileChannels.install(data); Mikyu store = Mikyu.open(data, CONFIG)) {
            for (int i = 0; i < STEPS_WITH_FAULT; i++) {
                workload.step(store, random);
            }
            return new long[] {disk.bytesWritten(), disk.writes(), disk.forceCalls()};
        } finally {
            Directories.deleteRecursively(data);
        }
    }

    private static String arm(FaultyFileChannels disk, Fault fault, long[] run, Random random) {
        switch (fault) {
            case DISK_FULL -> {
                long bytes = random.nextLong(Math.max(1, run[0]));
                disk.diskFullAfter(bytes);
                return "disk full after " + bytes + " bytes";
            }
            case WRITE_EIO -> {
                long k = 1 + random.nextLong(Math.max(1, run[1]));
                disk.failWrite(k);
                return "write " + k + " fails";
            }
            default -> {
                long k = 1 + random.nextLong(Math.max(1, run[2]));
                disk.failForce(k);
                return "fsync " + k + " fails";
            }
        }
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** An operation the fault hit must say why it failed. */
    private static void assertSaysWhy(Exception e, String what) {
        if (e instanceof StorageFullException || e instanceof StorageFailedException) {
            return;
        }
        StringBuilder chain = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            chain.append(t).append(" <- ");
        }
        String text = chain.toString();
        assertThat(text.contains("No space left on device") || text.contains("Input/output error"))
                .withFailMessage("%s: the failure does not name its cause: %s", what, text).isTrue();
        assertThat(e).as(what).isInstanceOfAny(io.mikyu.engine.MikyuException.class,
                java.io.UncheckedIOException.class);
    }
}
