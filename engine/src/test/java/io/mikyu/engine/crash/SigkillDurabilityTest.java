package io.mikyu.engine.crash;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.support.Payloads;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real process appends and is killed with SIGKILL mid-stream; whatever it was told is stored must be there,
 * intact and in order, when the directory is opened again.
 */
@Timeout(180)
class SigkillDurabilityTest {

    /** Generous: a child's fsynced appends crawl on a loaded machine; a passing run never waits this long. */
    private static final Duration ACK_WAIT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    @Test
    void everyAcknowledgedSyncAppendSurvivesSigkill() throws Exception {
        crashAndVerify(4000, "durability=sync", "threads=4");
    }

    @Test
    void everyAcknowledgedSyncAppendOfASingleProducerSurvivesSigkill() throws Exception {
        crashAndVerify(1000, "durability=sync", "threads=1");
    }

    @Test
    void aProcessCrashLosesNothingAcknowledgedWithAsyncDurability() throws Exception {
        crashAndVerify(10_000, "durability=async", "threads=4");
    }

    @Test
    void everyAcknowledgedAppendSurvivesSigkillWhileSegmentsRoll() throws Exception {
        Path dir = tmp.resolve("data");
        List<String> lines = crash(dir, 4000, 5, "durability=sync", "threads=4", "segmentBytes=" + (64 * 1024));
        verifyAcknowledged(dir, lines);
    }

    @Test
    void asyncAppendsSurviveSigkillWhileSegmentsRoll() throws Exception {
        Path dir = tmp.resolve("data");
        List<String> lines = crash(dir, 8000, 5, "durability=async", "threads=4", "segmentBytes=" + (64 * 1024));
        verifyAcknowledged(dir, lines);
    }

    @Test
    void committedConsumerGroupOffsetsSurviveSigkill() throws Exception {
        Path dir = tmp.resolve("data");
        Path data = dir;
        List<String> lines;
        try (ChildProcess child = ChildProcess.start(tmp, CrashingAppender.class, java.util.Map.of(), "append", data.toString(), "durability=sync", "threads=2",
                "groups=true")) {
            child.awaitLines(l -> l.startsWith("COMMIT h "), 30, ACK_WAIT);
            child.awaitLines(l -> l.startsWith("ACK "), 1000, ACK_WAIT);
            child.sigkill();
            lines = child.lines();
        }
        Map<String, Long> lastCommitted = new HashMap<>();
        for (String l : lines) {
            if (l.startsWith("COMMIT ")) {
                String[] f = l.split(" ");
                long next = Long.parseLong(f[2]);
                Long before = lastCommitted.put(f[1], next);
                assertThat(before == null || before <= next).as("the child commits forward only").isTrue();
            }
        }
        assertThat(lastCommitted).containsKeys("g", "h");
        verifyAcknowledged(dir, lines);
        try (Mikyu store = Mikyu.open(dir)) {
            LogQueue q = store.log(CrashingAppender.QUEUE);
            assertThat(q.groups()).containsExactly("g", "h");
            for (Map.Entry<String, Long> e : lastCommitted.entrySet()) {
                ConsumerGroup g = q.group(e.getKey());
                assertThat(g.hasCommitted()).isTrue();
                // a commit that was durable but not yet printed may be newer; never older
                assertThat(g.position()).as("position of group %s", e.getKey())
                        .isGreaterThanOrEqualTo(e.getValue())
                        .isLessThanOrEqualTo(q.endOffset());
            }
        }
    }

    private void crashAndVerify(long acks, String... options) throws Exception {
        Path dir = tmp.resolve("data");
        List<String> lines = crash(dir, acks, 1, options);
        verifyAcknowledged(dir, lines);
    }

    private List<String> crash(Path dir, long acks, int minSegments, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("append", dir.toString()));
        args.addAll(List.of(options));
        try (ChildProcess child = ChildProcess.start(tmp, CrashingAppender.class, java.util.Map.of(), args.toArray(String[]::new))) {
            child.awaitLines(l -> l.startsWith("ACK "), acks, ACK_WAIT);
            assertThat(StoreFiles.segments(StoreFiles.logDir(dir, CrashingAppender.QUEUE)))
                    .as("segments written before the kill").hasSizeGreaterThanOrEqualTo(minSegments);
            child.sigkill();
            return child.lines();
        }
    }

    /** Reopens the store and checks every acknowledged record and the shape of the whole log. */
    static void verifyAcknowledged(Path dir, List<String> lines) {
        Map<Long, Payloads.Identity> acked = new TreeMap<>();
        for (String l : lines) {
            if (l.startsWith("ACK ")) {
                String[] f = l.split(" ");
                Payloads.Identity id = new Payloads.Identity(Integer.parseInt(f[1]), Long.parseLong(f[2]));
                Payloads.Identity dup = acked.put(Long.parseLong(f[3]), id);
                assertThat(dup).as("offset %s acknowledged twice", f[3]).isNull();
            }
        }
        assertThat(acked).isNotEmpty();
        try (Mikyu store = Mikyu.open(dir)) {
            RecoveryReport report = store.recoveryReport();
            assertThat(report.events()).as("recovery after SIGKILL")
                    .noneMatch(e -> e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED);
            LogQueue q = store.log(CrashingAppender.QUEUE);
            assertThat(q.startOffset()).isZero();
            long end = q.endOffset();
            long maxAcked = ((TreeMap<Long, Payloads.Identity>) acked).lastKey();
            assertThat(end).as("end offset vs. highest acknowledged offset " + maxAcked + "; " + report)
                    .isGreaterThan(maxAcked);

            List<Record> all = new ArrayList<>((int) end);
            long from = 0;
            while (from < end) {
                List<Record> chunk = q.read(from, 5000);
                assertThat(chunk).as("read from %d below end %d", from, end).isNotEmpty();
                all.addAll(chunk);
                from = chunk.get(chunk.size() - 1).offset() + 1;
            }
            Map<Integer, Long> lastSeq = new HashMap<>();
            for (int i = 0; i < all.size(); i++) {
                Record r = all.get(i);
                assertThat(r.offset()).as("offsets are contiguous from 0").isEqualTo(i);
                Payloads.Identity id = Payloads.decode(r.payload());
                assertThat(r.keyAsString()).isEqualTo("p" + id.producer());
                assertThat(r.headers().getString("producer")).isEqualTo(String.valueOf(id.producer()));
                long expectedSeq = lastSeq.getOrDefault(id.producer(), -1L) + 1;
                assertThat(id.seq()).as("sequence of producer %d at offset %d (no gap, no duplicate)",
                        id.producer(), r.offset()).isEqualTo(expectedSeq);
                lastSeq.put(id.producer(), id.seq());
            }
            assertThat((long) all.size()).isEqualTo(end);
            for (Map.Entry<Long, Payloads.Identity> e : acked.entrySet()) {
                Payloads.Identity stored = Payloads.decode(all.get(Math.toIntExact(e.getKey())).payload());
                assertThat(stored).as("record at acknowledged offset %d", e.getKey()).isEqualTo(e.getValue());
            }
            // and the store goes on where it stopped
            assertThat(q.append(Entry.of("after the crash"))).isEqualTo(end);
        }
    }
}
