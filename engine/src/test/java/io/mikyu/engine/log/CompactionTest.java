package io.mikyu.engine.log;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class CompactionTest {

    private static final LogQueueConfig COMPACTED = LogQueueConfig.defaults().withSegmentBytes(4096)
            .withCompaction(true);
    private static final int KEYS = 10;
    private static final int ROUNDS = 40;

    @TempDir
    Path data;

    private static String value(int key, int round) {
        return "k" + key + "-v" + round + "-" + "#".repeat(60);
    }

    /** KEYS keys updated ROUNDS times, round-robin; returns the offset of each key's newest record. */
    private static Map<String, Long> writeUpdates(LogQueue q) {
        Map<String, Long> newest = new HashMap<>();
        for (int round = 0; round < ROUNDS; round++) {
            for (int k = 0; k < KEYS; k++) {
                long offset = q.append(Entry.keyed("k" + k, value(k, round)));
                newest.put("k" + k, offset);
            }
        }
        return newest;
    }

    private static long activeBase(Path data, String queue) {
        List<Path> segs = StoreFiles.segments(StoreFiles.logDir(data, queue));
        return Long.parseLong(segs.get(segs.size() - 1).getFileName().toString().substring(0, 20));
    }

    private static void assertCompacted(LogQueue q, Map<String, Long> newest, long activeBase, long total) {
        List<Record> all = q.read(0, 100_000);
        Set<String> seenInSealed = new HashSet<>();
        for (Record r : all) {
            String key = r.keyAsString();
            int k = Integer.parseInt(key.substring(1));
            int round = Integer.parseInt(r.payloadAsString().split("-v")[1].split("-")[0]);
            assertThat(r.offset()).as("offsets never change").isEqualTo((long) round * KEYS + k);
            if (r.offset() < activeBase) {
                assertThat(seenInSealed.add(key)).as("one record per key in sealed segments: " + key).isTrue();
                assertThat(r.offset()).as("only the newest record of %s", key).isEqualTo(newest.get(key));
            }
        }
        for (Map.Entry<String, Long> e : newest.entrySet()) {
            Record r = q.read(e.getValue());
            assertThat(r).isNotNull();
            assertThat(r.keyAsString()).isEqualTo(e.getKey());
        }
        assertThat(all.size()).isLessThan((int) total);
        assertThat(q.endOffset()).isEqualTo(total);
    }

    @Test
    void compactionKeepsTheNewestRecordPerKeyWithItsOffsetAndSurvivesReopen() {
        Map<String, Long> newest;
        long activeBase;
        long removed;
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("c", COMPACTED);
            newest = writeUpdates(q);
            activeBase = activeBase(data, "c");
            assertThat(activeBase).isGreaterThan(KEYS * 2);
            removed = q.compact();
            assertThat(removed).isPositive();
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events()).isEmpty();
            LogQueue q = store.log("c");
            assertCompacted(q, newest, activeBase, (long) KEYS * ROUNDS);
            assertThat(q.read(0, 100_000)).hasSize((int) (KEYS * ROUNDS - removed));
            assertThat(q.append(Entry.keyed("k0", "after"))).isEqualTo((long) KEYS * ROUNDS);
        }
    }

    @Test
    void compactingTwiceRemovesNothingTheSecondTime() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("c", COMPACTED);
            writeUpdates(q);
            assertThat(q.compact()).isPositive();
            assertThat(q.compact()).as("records removed by a second compaction right after the first").isZero();
        }
    }

    @Test
    void readersOfTheOpenStoreNoLongerSeeCompactedRecords() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("c", COMPACTED);
            Map<String, Long> newest = writeUpdates(q);
            long activeBase = activeBase(data, "c");
            long removed = q.compact();
            assertThat(removed).isPositive();
            assertThat(q.read(0)).as("k0's first value was compacted away").isNull();
            assertCompacted(q, newest, activeBase, (long) KEYS * ROUNDS);
            assertThat(q.read(0, 100_000)).hasSize((int) (KEYS * ROUNDS - removed));
        }
    }

    @Test
    void aCompactedSegmentWithGapsIsRecoveredByScanningWhenItsIndexIsLost() throws Exception {
        Map<String, Long> newest;
        long activeBase;
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("c", COMPACTED);
            newest = writeUpdates(q);
            activeBase = activeBase(data, "c");
            q.compact();
        }
        for (Path idx : StoreFiles.indexes(StoreFiles.logDir(data, "c"))) {
            Files.delete(idx);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().isClean()).as(store.recoveryReport().toString()).isTrue();
            assertCompacted(store.log("c"), newest, activeBase, (long) KEYS * ROUNDS);
        }
    }

    @Test
    void aTombstoneRemovesEarlierRecordsOfItsKeyAndIsKeptWithinTombstoneRetention() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("c", COMPACTED);
            long first = q.append(Entry.keyed("gone", "v1"));
            q.append(Entry.keyed("gone", "v2"));
            long tomb = q.append(Entry.tombstone("gone"));
            q.append(Entry.keyed("stays", "v1"));
            long unkeyed = q.append(Entry.of("no key"));
            pushIntoSealedSegments(q);
            q.compact();
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("c");
            assertThat(q.read(0)).isNull();
            assertThat(q.read(1)).isNull();
            assertThat(q.read(2).isTombstone()).as("tombstone kept within tombstoneRetention").isTrue();
            assertThat(q.read(3).payloadAsString()).isEqualTo("v1");
            assertThat(q.read(4).payloadAsString()).as("records without a key are kept").isEqualTo("no key");
        }
    }

    @Test
    void aTombstoneOlderThanTombstoneRetentionIsRemovedToo() {
        long old = System.currentTimeMillis() - Duration.ofHours(2).toMillis();
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("c", COMPACTED.withTombstoneRetention(Duration.ofHours(1)));
            q.append(Entry.keyed("gone", "v1"));
            q.append(new Entry("gone".getBytes(), Headers.EMPTY, null, old));
            q.append(new Entry("fresh".getBytes(), Headers.EMPTY, null, Entry.NO_TIMESTAMP));
            pushIntoSealedSegments(q);
            q.compact();
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("c");
            assertThat(q.read(0)).isNull();
            assertThat(q.read(1)).as("old tombstone removed").isNull();
            assertThat(q.read(2).isTombstone()).as("young tombstone kept").isTrue();
        }
    }

    @Test
    void compactionLeavesTheActiveSegmentAlone() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("c", LogQueueConfig.defaults().withCompaction(true));
            for (int i = 0; i < 50; i++) {
                q.append(Entry.keyed("same", "v" + i));
            }
            assertThat(q.compact()).isZero();
            assertThat(q.read(0, 100)).hasSize(50);
        }
    }

    /** Fills unrelated keys until the records written so far sit in sealed segments. */
    private static void pushIntoSealedSegments(LogQueue q) {
        for (int i = 0; i < 60; i++) {
            q.append(Entry.keyed("filler-" + i, "x".repeat(100)));
        }
        assertThat(q.stats().segments()).isGreaterThan(1);
    }
}
