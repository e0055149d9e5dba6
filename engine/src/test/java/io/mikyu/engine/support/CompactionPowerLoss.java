package io.mikyu.engine.support;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.internal.files.PowerLossFileSystem;
import io.mikyu.engine.support.CompactedLogModel.Written;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The power goes in the middle of a compaction of many passes (a 2 KiB key map, 63 keys a pass, for 100 keys), at
 * points spread over all its writes and fsyncs. The store on what the disk kept must open with nothing lost: every
 * record there is the one appended at its offset, every record without a key is there, every key's newest record
 * is there (or, for a tombstone past its retention, no record of the key is left), and compacting again gives
 * exactly what one uninterrupted compaction gives. {@code CompactionPowerLossTest} cuts at a few points in the
 * default build, the fault campaign's {@code CompactionPowerLossScenarioTest} at as many as its cycles.
 */
public final class CompactionPowerLoss {

    private static final long START = 1_700_000_000_000L;
    private static final LogQueueConfig COMPACTED = LogQueueConfig.defaults().withSegmentBytes(4096)
            .withCompaction(true).withTombstoneRetention(Duration.ofHours(1));

    private final Path tmp;

    public CompactionPowerLoss(Path tmp) {
        this.tmp = tmp;
    }

    private final CompactedLogModel model = new CompactedLogModel();
    private long passes;

    private static EngineConfig config(long now) {
        return EngineConfig.builder().compactionKeyMapBytes(2048).timeSource(new SteppableTimeSource(now))
                .housekeepingInterval(Duration.ofHours(1)).build();
    }

    /** A compacted log written two hours apart, so that the first half's tombstones have expired. */
    private Path template() {
        Path dir = tmp.resolve("template");
        Random random = new Random(11);
        try (Mikyu store = Mikyu.open(dir, config(START))) {
            LogQueue q = store.createLog("c", COMPACTED);
            model.appendUpdates(q, random, 100, 200, START);
        }
        long later = START + Duration.ofHours(2).toMillis();
        try (Mikyu store = Mikyu.open(dir, config(later))) {
            LogQueue q = store.log("c");
            model.appendUpdates(q, random, 100, 200, later);
            model.appendUnkeyed(q, 120, later);
        }
        return dir;
    }

    /** Compacts a copy of {@code template} with the power going before its {@code cut}-th write or fsync. */
    private Path compactUntilPowerLoss(Path template, long cut, String name) throws Exception {
        Path data = tmp.resolve(name);
        StoreFiles.copyDirectory(template, data);
        Path after = tmp.resolve(name + "-after");
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, tmp.resolve(name + "-disk"))) {
            Mikyu store = Mikyu.open(data, config(now()));
            try {
                disk.cutAtEvent(cut);
                store.log("c").compact();
            } catch (RuntimeException expectedOnceThePowerIsGone) {
                assertThat(disk.isCut()).as("compaction failed with the power on: " + expectedOnceThePowerIsGone)
                        .isTrue();
            } finally {
                disk.cut();
                try {
                    store.close();
                } catch (RuntimeException expectedOnADeadDisk) {
                    // nothing it writes now reaches the disk
                }
            }
            disk.materialize(after);
        }
        return after;
    }

    private static long now() {
        return START + Duration.ofHours(2).toMillis();
    }

    /** Writes and fsyncs of one whole compaction of the template; sets {@link #passes}. */
    private long eventsOfACompaction(Path template, Path data, Path shadows) throws Exception {
        StoreFiles.copyDirectory(template, data);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (PowerLossFileSystem disk = PowerLossFileSystem.install(data, shadows);
             Mikyu store = Mikyu.open(data, config(now()).toBuilder().meterRegistry(meters).build())) {
            long before = disk.events();
            assertThat(store.log("c").compact()).isPositive();
            passes = (long) meters.get("mikyu.queue.compaction.passes").functionCounter().count();
            return disk.events() - before;
        }
    }

    /**
     * Cuts the power at {@code cuts} points spread over one compaction's writes and fsyncs (at every one if they
     * are fewer) and checks each store after it; returns how many writes and fsyncs the compaction makes.
     */
    public long run(int cuts) throws Exception {
        Path template = template();
        long events = eventsOfACompaction(template, tmp.resolve("whole"), tmp.resolve("whole-disk"));
        assertThat(passes).as("passes of the compaction").isGreaterThan(1);
        int points = (int) Math.min(cuts, events);

        CompactedLogModel compacted = copyOf(model);
        compacted.compact(CompactedLogModel.activeSegmentBase(template, "c"), now() - Duration.ofHours(1).toMillis());
        Map<String, Written> newest = model.newestRecords();
        Map<Long, Written> appended = new HashMap<>();
        for (Written w : model.present()) {
            appended.put(w.offset(), w);
        }
        for (int i = 0; i < points; i++) {
            long cut = points == 1 ? 1 + events / 2 : 1 + i * (events - 1) / (points - 1);
            Path after = compactUntilPowerLoss(template, cut, "cut-" + cut);
            try (Mikyu store = Mikyu.open(after, config(now()))) {
                String at = "power lost before event " + cut + " of " + events;
                assertThat(store.recoveryReport().events()).as(at).noneMatch(e ->
                        e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED
                                || e.kind() == RecoveryReport.Kind.QUEUE_QUARANTINED);
                LogQueue q = store.log("c");
                List<Record> held = CompactedLogModel.readAll(q);
                Map<String, Record> newestHeld = new HashMap<>();
                for (Record r : held) {
                    Written w = appended.get(r.offset());
                    assertThat(w).as("%s: a record appended at %d", at, r.offset()).isNotNull();
                    CompactedLogModel.assertSame(w, r);
                    if (r.key() != null) {
                        newestHeld.put(r.keyAsString(), r);
                    }
                }
                assertThat(held.stream().filter(r -> r.key() == null).count()).as(at + ": records without a key")
                        .isEqualTo(model.present().stream().filter(w -> w.key() == null).count());
                for (Written w : newest.values()) {
                    Record r = newestHeld.get(w.key());
                    if (w.payload() == null && w.timestamp() < now() - Duration.ofHours(1).toMillis() && r == null) {
                        continue; // an expired tombstone, removed after every older record of its key
                    }
                    assertThat(r).as("%s: the newest record of %s", at, w.key()).isNotNull();
                    assertThat(r.offset()).as("%s: the newest record of %s", at, w.key()).isEqualTo(w.offset());
                }
                q.compact();
                compacted.assertHeldBy(q);
            }
        }
        return events;
    }

    private static CompactedLogModel copyOf(CompactedLogModel m) {
        CompactedLogModel copy = new CompactedLogModel();
        for (Written w : m.present()) {
            copy.appended(w.offset(), w.key(), w.payload(), w.timestamp());
        }
        return copy;
    }
}
