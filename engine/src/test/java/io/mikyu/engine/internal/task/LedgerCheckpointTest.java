package io.mikyu.engine.internal.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reopening a task queue from its checkpoint ({@code ledger.ckpt}) reads the held tasks' records and the log's tail,
 * not its backlog, and reaches the state a replay of the whole log reaches; a checkpoint that cannot be trusted
 * whole is ignored.
 */
class LedgerCheckpointTest {

    private static final int WINDOW = 10;
    private static final Duration LEASE = Duration.ofMinutes(1);

    @TempDir
    Path tmp;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open(Path dir, int window) {
        return Mikyu.open(dir, EngineConfig.builder().taskWindow(window).timeSource(clock).build());
    }

    private static Path checkpointOf(Path dir, String queue) {
        return dir.resolve("task").resolve(queue).resolve(LedgerCheckpoint.FILE_NAME);
    }

    private static long recordsRead(TaskQueue q) {
        return ((TaskQueueHandle) q).recordsReadToOpen();
    }

    private static String text(LeasedTask t) {
        return new String(t.payload(), StandardCharsets.UTF_8);
    }

    /** Every state a task can be in, across the window's edge and across priorities. */
    private void mixedState(Mikyu store, TaskQueue q) throws Exception {
        for (int i = 0; i < 30; i++) {
            q.enqueue(Task.of("p4-" + i).withPriority(4));
        }
        for (int i = 0; i < 5; i++) {
            q.enqueue(Task.of("p7-" + i).withPriority(7));
        }
        for (int i = 0; i < 3; i++) {
            q.enqueue(Task.of("later-" + i).deliverAt(clock.wallAfter(Duration.ofHours(1))));
        }
        List<LeasedTask> t = q.dequeue(5, LEASE, Duration.ZERO, null);
        q.ack(t.get(0).token());
        q.nack(t.get(1).token(), Duration.ofMinutes(10), "try later");
        q.returnUndelivered(List.of(t.get(2).token()));
        q.extend(t.get(3).token(), Duration.ofMinutes(5));
        try (Transaction tx = store.beginTransaction()) {
            tx.ack("jobs", t.get(4).token());
            tx.enqueue("jobs", Task.of("in-a-transaction"));
            tx.commit();
        }
        List<LeasedTask> short1 = q.dequeue(1, Duration.ofSeconds(1), Duration.ZERO, null);
        assertThat(short1).hasSize(1);
        clock.advance(Duration.ofSeconds(2)); // its lease runs out: back after a backoff, attempts counted
        List<LeasedTask> more = q.dequeue(12, LEASE, Duration.ZERO, null); // into the p4 backlog
        q.ack(more.subList(0, 6).stream().map(LeasedTask::token).toList());
    }

    /** A copy of {@code dir} (the store closed or crashed), without its checkpoints when {@code withoutCheckpoints}. */
    private Path copy(Path dir, String name, boolean withoutCheckpoints) throws IOException {
        Path target = tmp.resolve(name);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path to = target.resolve(dir.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else if (!(withoutCheckpoints && p.getFileName().toString().equals(LedgerCheckpoint.FILE_NAME))
                        && !p.getFileName().toString().endsWith(".lock")) {
                    Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return target;
    }

    private record Opened(String fingerprint, long recordsRead) {
    }

    private Opened reopen(Path dir, int window) {
        try (Mikyu store = open(dir, window)) {
            TaskQueue q = store.taskQueue("jobs");
            return new Opened(LedgerFingerprint.of(q), recordsRead(q));
        }
    }

    @Test
    void everyStateOfATaskSurvivesACheckpointedReopen() throws Exception {
        Path dir = tmp.resolve("data");
        String live;
        try (Mikyu store = open(dir, WINDOW)) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            mixedState(store, q);
            live = LedgerFingerprint.of(q);
        }
        assertThat(checkpointOf(dir, "jobs")).exists();
        Path replayed = copy(dir, "replayed", true);

        Opened fromCheckpoint = reopen(dir, WINDOW);
        Opened fromLog = reopen(replayed, WINDOW);
        assertThat(fromCheckpoint.fingerprint()).isEqualTo(fromLog.fingerprint()).isEqualTo(live);
        assertThat(fromCheckpoint.recordsRead()).isLessThan(fromLog.recordsRead());
    }

    @Test
    void leasesKeepTheirNumberAndEndAcrossACheckpointedReopen() throws Exception {
        Path dir = tmp.resolve("data");
        LeasedTask held;
        try (Mikyu store = open(dir, WINDOW)) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            for (int i = 0; i < 40; i++) {
                q.enqueue(Task.of("t" + i));
            }
            held = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
        }
        try (Mikyu store = open(dir, WINDOW)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(recordsRead(q)).isLessThan(40);
            assertThat(q.counts().inFlight()).isEqualTo(1);
            assertThat(q.holds(held.token())).isTrue();
            clock.advance(LEASE.plusSeconds(1));
            q.counts(); // applies the clock
            assertThat(q.holds(held.token())).as("the lease ended when it was to end").isFalse();
        }
    }

    @Test
    void anOpenWithoutWorkLeavesACheckpointAsGood() throws Exception {
        Path dir = tmp.resolve("data");
        try (Mikyu store = open(dir, WINDOW)) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            for (int i = 0; i < 200; i++) {
                q.enqueue(Task.of("t" + i));
            }
        }
        long first = reopen(dir, WINDOW).recordsRead();
        Opened second = reopen(dir, WINDOW);
        assertThat(second.recordsRead()).isLessThan(100).isEqualTo(first);
        assertThat(second.fingerprint()).isEqualTo(reopen(copy(dir, "replayed", true), WINDOW).fingerprint());
    }

    @Test
    void reopeningReadsTheWindowAndTheTailNotTheBacklog() throws Exception {
        int window = 64;
        int backlog = window * 100;
        Path dir = tmp.resolve("data");
        List<String> expected = new ArrayList<>();
        try (Mikyu store = open(dir, window)) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults().withDurability(Durability.ASYNC));
            for (int b = 0; b < backlog / 100; b++) {
                List<Task> batch = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    String name = "t" + (b * 100 + i);
                    batch.add(Task.of(name));
                    expected.add(name);
                }
                q.enqueueBatch(batch, Durability.ASYNC);
            }
            for (int i = 0; i < 150; i++) {
                LeasedTask t = q.dequeue(1, LEASE, Duration.ZERO, null).get(0);
                assertThat(text(t)).isEqualTo(expected.remove(0));
                q.ack(t.token());
            }
        }
        Path replayed = copy(dir, "replayed", true);
        Opened fromLog = reopen(replayed, window);
        assertThat(fromLog.recordsRead()).isGreaterThanOrEqualTo(backlog);

        try (Mikyu store = open(dir, window)) {
            TaskQueue q = store.taskQueue("jobs");
            assertThat(recordsRead(q)).as("records read to open a backlog of %d behind a window of %d", backlog,
                    window).isLessThan(window * 8L);
            assertThat(LedgerFingerprint.of(q)).isEqualTo(fromLog.fingerprint());
            List<String> delivered = new ArrayList<>();
            for (List<LeasedTask> t = q.dequeue(100, LEASE, Duration.ZERO, null); !t.isEmpty();
                 t = q.dequeue(100, LEASE, Duration.ZERO, null)) {
                t.forEach(x -> delivered.add(text(x)));
                q.ack(t.stream().map(LeasedTask::token).toList());
            }
            assertThat(delivered).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aCheckpointByHousekeepingThenMoreWorkThenACrashRecoversExactly() throws Exception {
        Path dir = tmp.resolve("data");
        Path crashed;
        try (Mikyu store = open(dir, WINDOW)) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults());
            mixedState(store, q);
            TaskQueueHandle h = (TaskQueueHandle) q;
            store.flush(); // a transaction's writes are not fsynced by themselves
            h.housekeeping(); // takes it and, the log being fsynced past it, writes it
            assertThat(checkpointOf(dir, "jobs")).exists();
            for (int i = 0; i < 20; i++) {
                q.enqueue(Task.of("after-" + i).withPriority(i % 3 * 3));
            }
            List<LeasedTask> t = q.dequeue(6, LEASE, Duration.ZERO, null);
            q.ack(t.get(0).token());
            q.nack(t.get(1).token(), Duration.ofMinutes(3), "again");
            q.returnUndelivered(List.of(t.get(2).token()));
            q.extend(t.get(3).token(), Duration.ofMinutes(7));
            crashed = copy(dir, "crashed", false); // what a kill -9 leaves: every written byte, no clean close
        }
        Path replayed = copy(crashed, "replayed", true);
        Opened fromCheckpoint = reopen(crashed, WINDOW);
        Opened fromLog = reopen(replayed, WINDOW);
        assertThat(fromCheckpoint.fingerprint()).isEqualTo(fromLog.fingerprint());
        assertThat(fromCheckpoint.recordsRead()).isLessThan(fromLog.recordsRead());
    }

    @Test
    void aCheckpointWaitsUntilTheLogIsFsyncedPastIt() throws Exception {
        Path dir = tmp.resolve("data");
        try (Mikyu store = Mikyu.open(dir, EngineConfig.builder().taskWindow(WINDOW).timeSource(clock)
                .flushInterval(Duration.ofHours(1)).housekeepingInterval(Duration.ofHours(1)).build())) {
            TaskQueue q = store.createTaskQueue("jobs", TaskQueueConfig.defaults().withDurability(Durability.ASYNC));
            for (int i = 0; i < 30; i++) {
                q.enqueue(Task.of("t" + i), Durability.ASYNC);
            }
            TaskQueueHandle h = (TaskQueueHandle) q;
            h.housekeeping();
            assertThat(checkpointOf(dir, "jobs")).as("written before its records are fsynced").doesNotExist();
            store.flush();
            h.housekeeping();
            assertThat(checkpointOf(dir, "jobs")).exists();
        }
    }

    @Test
    void aDamagedTornOrAheadCheckpointIsIgnoredAsAWhole() throws Exception {
        Path dir = tmp.resolve("data");
        try (Mikyu store = open(dir, WINDOW)) {
            mixedState(store, store.createTaskQueue("jobs", TaskQueueConfig.defaults()));
        }
        Opened full = reopen(copy(dir, "replayed", true), WINDOW);
        byte[] good = Files.readAllBytes(checkpointOf(dir, "jobs"));
        LedgerCheckpoint c = LedgerCheckpoint.decode(good);
        List<byte[]> bad = new ArrayList<>();
        for (int len : new int[] {0, 3, 15, good.length / 2, good.length - 1}) {
            bad.add(Arrays.copyOf(good, len)); // torn
        }
        byte[] flipped = good.clone();
        flipped[good.length / 2] ^= 0x10;
        bad.add(flipped);
        byte[] magic = good.clone();
        magic[0] ^= 1;
        bad.add(magic);
        bad.add(new LedgerCheckpoint(c.replayFrom(), c.joinedEnd(), c.end() + 1000, c.lastLease(), c.coldFrom(),
                c.coldCount(), c.coldLast(), c.ahead(), c.held()).encode()); // speaks of records the log lost
        for (int i = 0; i < bad.size(); i++) {
            Path d = copy(dir, "bad-" + i, false);
            Files.write(checkpointOf(d, "jobs"), bad.get(i));
            Opened o = reopen(d, WINDOW);
            assertThat(o.fingerprint()).as("damage %d", i).isEqualTo(full.fingerprint());
            assertThat(o.recordsRead()).as("damage %d: the whole log replayed", i).isEqualTo(full.recordsRead());
        }
    }
}
