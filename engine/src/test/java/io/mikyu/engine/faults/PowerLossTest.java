package io.mikyu.engine.faults;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.files.PowerLossFileSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fault campaign, scenario 3: power loss. Each cycle runs one workload on a fresh store under
 * {@link PowerLossFileSystem}, cuts the power before a random (seeded) write or fsync, reopens the store on what
 * the disk kept, and checks the workload's invariants: the store opens, what {@code SYNC} acknowledged survives,
 * {@code ASYNC} loses only what no flush covered, nothing acknowledged as finished comes back, prepared branches
 * stay prepared. {@code -Dmikyu.faults.seed=S} repeats a run; the failing cycle names its seed and cut.
 */
@Tag("faults")
class PowerLossTest {

    private static final int CYCLES = Integer.getInteger("mikyu.faults.cycles", 12);
    private static final long SEED = Long.getLong("mikyu.faults.seed", System.nanoTime());
    private static final int STEPS = 60;

    private static final EngineConfig CONFIG = EngineConfig.builder()
            .flushInterval(Duration.ofMillis(50))
            .preallocateBytes(16 * 1024)
            .minFreeDiskBytes(0)
            .build();

    private static final List<Supplier<Workload>> ALL = List.of(
            LogAppendWorkload::new, TaskWorkload::new, DeadLetterWorkload::new, TwoPhaseWorkload::new,
            QueueLifecycleWorkload::new, CompactionWorkload::new);
    /** {@code -Dmikyu.faults.workload=NAME} runs only the workloads whose name contains it. */
    private static final List<Supplier<Workload>> WORKLOADS = ALL.stream()
            .filter(w -> w.get().name().contains(System.getProperty("mikyu.faults.workload", ""))).toList();

    @TempDir
    Path tmp;

    /** When the power went in the current cycle ({@link System#nanoTime()}). */
    private long cutNanos;

    @Test
    void whatWasAcknowledgedSurvivesAPowerLossAtAnyPoint() throws Exception {
        Tally tally = new Tally();
        long[] eventsPerRun = new long[WORKLOADS.size()];
        long started = System.nanoTime();
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            int kind = cycle % WORKLOADS.size();
            long seed = SEED + cycle;
            Random random = new Random(seed);
            // The first cycle of each workload runs to its end, the power going after it; it measures how many
            // writes and fsyncs a run makes, and later cycles cut before one of them.
            long cutAt = eventsPerRun[kind] == 0 ? 0 : 1 + random.nextLong(eventsPerRun[kind]);
            Workload workload = WORKLOADS.get(kind).get();
            String what = "cycle " + cycle + " (" + workload.name() + ", -Dmikyu.faults.seed=" + SEED + ", cut at "
                    + (cutAt == 0 ? "the end" : "event " + cutAt) + ")";
            Path cycleDir = tmp.resolve("cycle-" + cycle);
            long events = runUntilThePowerGoes(workload, random, cutAt, cycleDir, what);
            if (cutAt == 0) {
                eventsPerRun[kind] = Math.max(1, events);
            }
            try (Mikyu store = Mikyu.open(cycleDir.resolve("after"), CONFIG)) {
                workload.verify(store, tally, cutNanos);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(what + ": " + e.getMessage() + "\nfiles after the power loss (and the"
                        + " reopening):\n" + listing(cycleDir.resolve("after")), e);
            }
            Directories.deleteRecursively(cycleDir);
        }
        System.out.printf("PowerLossTest: %d cycles, %s, %d s (seed %d)%n", CYCLES, tally,
                Duration.ofNanos(System.nanoTime() - started).toSeconds(), SEED);
        assertThat(tally.lost).isZero();
        assertThat(tally.reappeared).isZero();
    }

    private static String listing(Path dir) throws java.io.IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.map(p -> dir.relativize(p) + " " + p.toFile().length()).collect(Collectors.joining("\n"));
        }
    }

    /** Runs the workload until the power goes (or its steps run out: then it goes); returns the events seen. */
    private long runUntilThePowerGoes(Workload workload, Random random, long cutAt, Path cycleDir, String what)
            throws Exception {
        Path data = cycleDir.resolve("data");
        Files.createDirectories(data);
        long events;
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, cycleDir.resolve("durable"))) {
            if (cutAt > 0) {
                disk.cutAtEvent(cutAt);
            }
            Mikyu store = null;
            try {
                store = Mikyu.open(data, CONFIG);
                for (int i = 0; i < STEPS && !disk.isCut(); i++) {
                    try {
                        workload.step(store, random);
                    } catch (Exception | AssertionError e) {
                        if (!disk.isCut()) {
                            throw new AssertionError(what + ": step " + i + " failed with the power on", e);
                        }
                    }
                }
            } catch (RuntimeException e) {
                if (!disk.isCut()) {
                    throw new AssertionError(what + ": the store failed with the power on", e);
                }
            } finally {
                disk.cut();
                cutNanos = System.nanoTime();
                events = disk.events();
                if (store != null) {
                    try {
                        store.close(); // on a dead disk: what it writes now is lost, as are its errors
                    } catch (RuntimeException ignored) {
                        // expected
                    }
                }
            }
            disk.materialize(cycleDir.resolve("after"));
        }
        return events;
    }
}
