package io.mikyu.engine.recovery;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.support.Fill;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** An incomplete write at the end of the last segment is cut off; everything before it stays. */
class TornTailRecoveryTest {

    private static final String Q = "t";

    @TempDir
    Path data;

    private Path queueDir() {
        return StoreFiles.logDir(data, Q);
    }

    /** 50 one-record batches, cleanly closed; returns the only segment. */
    private Path writeFifty() {
        try (Mikyu store = Mikyu.open(data)) {
            Fill.append(store.createLog(Q), 0, 50);
        }
        List<Path> segs = StoreFiles.segments(queueDir());
        assertThat(segs).hasSize(1);
        return segs.get(0);
    }

    private static List<RecoveryReport.Event> events(Mikyu store, RecoveryReport.Kind kind) {
        return store.recoveryReport().events().stream().filter(e -> e.kind() == kind).toList();
    }

    @Test
    void truncatingTheLastBatchMidwayCutsTheTornTailAndKeepsEverythingBefore() {
        Path seg = writeFifty();
        StoreFiles.Batch last = StoreFiles.batches(seg).get(49);
        StoreFiles.truncate(seg, last.position() + last.totalSize() / 2);

        try (Mikyu store = Mikyu.open(data)) {
            List<RecoveryReport.Event> torn = events(store, RecoveryReport.Kind.TORN_TAIL_TRUNCATED);
            assertThat(torn).singleElement().satisfies(e -> {
                assertThat(e.file()).isEqualTo(seg.toString());
                assertThat(e.position()).isEqualTo(last.position());
                assertThat(e.toString()).contains(seg.toString()).contains("at byte " + last.position());
            });
            assertThat(events(store, RecoveryReport.Kind.CORRUPTION_QUARANTINED)).isEmpty();
            assertThat(store.recoveryReport().isClean()).isFalse();
            LogQueue q = store.log(Q);
            assertThat(q.endOffset()).isEqualTo(49);
            Fill.assertIntact(q, 0, 49);
            assertThat(q.append(Entry.of(Fill.payload(49)))).isEqualTo(49);
            assertThat(q.append(Entry.of(Fill.payload(50)))).isEqualTo(50);
        }
        assertThat(StoreFiles.quarantined(queueDir())).isEmpty();
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events()).isEmpty();
            Fill.assertIntact(store.log(Q), 0, 51);
        }
    }

    @Test
    void truncatingInsideABatchHeaderIsATornTailToo() {
        Path seg = writeFifty();
        StoreFiles.Batch last = StoreFiles.batches(seg).get(49);
        StoreFiles.truncate(seg, last.position() + 10);

        try (Mikyu store = Mikyu.open(data)) {
            assertThat(events(store, RecoveryReport.Kind.TORN_TAIL_TRUNCATED)).singleElement()
                    .satisfies(e -> assertThat(e.position()).isEqualTo(last.position()));
            LogQueue q = store.log(Q);
            Fill.assertIntact(q, 0, 49);
            assertThat(q.append(Entry.of("next"))).isEqualTo(49);
        }
    }

    @Test
    void aTornMultiRecordBatchIsCutWhole() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog(Q);
            Fill.append(q, 0, 5);
            List<Entry> batch = java.util.stream.LongStream.range(5, 15).mapToObj(i -> Entry.of(Fill.payload(i))).toList();
            assertThat(q.appendBatch(batch)).isEqualTo(5);
        }
        Path seg = StoreFiles.segments(queueDir()).get(0);
        StoreFiles.Batch big = StoreFiles.batches(seg).get(5);
        assertThat(big.lastOffset() - big.baseOffset()).isEqualTo(9);
        StoreFiles.truncate(seg, big.end() - 1);

        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log(Q);
            assertThat(q.endOffset()).as("a batch is all or nothing").isEqualTo(5);
            Fill.assertIntact(q, 0, 5);
        }
    }

    @Test
    void zerosAfterTheLastBatchAreIgnoredAndOverwritten() {
        Path seg = writeFifty();
        long size = StoreFiles.size(seg);
        StoreFiles.append(seg, new byte[8192]);

        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().isClean()).as(store.recoveryReport().toString()).isTrue();
            LogQueue q = store.log(Q);
            Fill.assertIntact(q, 0, 50);
            Fill.append(q, 50, 60);
        }
        assertThat(StoreFiles.size(seg)).as("closed cleanly: the zero tail is cut").isGreaterThan(size);
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events()).isEmpty();
            Fill.assertIntact(store.log(Q), 0, 60);
        }
    }

    @Test
    void shortGarbageAfterTheLastBatchIsCutAsATornTail() {
        Path seg = writeFifty();
        long end = StoreFiles.size(seg);
        byte[] garbage = new byte[20];
        Arrays.fill(garbage, (byte) 0x5A);
        StoreFiles.append(seg, garbage);

        try (Mikyu store = Mikyu.open(data)) {
            assertThat(events(store, RecoveryReport.Kind.TORN_TAIL_TRUNCATED)).singleElement()
                    .satisfies(e -> {
                        assertThat(e.file()).isEqualTo(seg.toString());
                        assertThat(e.position()).isEqualTo(end);
                    });
            LogQueue q = store.log(Q);
            Fill.assertIntact(q, 0, 50);
            assertThat(q.append(Entry.of(Fill.payload(50)))).isEqualTo(50);
        }
        try (Mikyu store = Mikyu.open(data)) {
            Fill.assertIntact(store.log(Q), 0, 51);
        }
    }

    @Test
    void randomGarbageAfterTheLastBatchIsCutAsATornTail() {
        Path seg = writeFifty();
        long end = StoreFiles.size(seg);
        byte[] garbage = new byte[300];
        new Random(42).nextBytes(garbage);
        StoreFiles.append(seg, garbage);

        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.recoveryReport().events())
                    .as("nothing valid follows the garbage, so it is an interrupted write, not mid-file damage")
                    .anySatisfy(e -> {
                        assertThat(e.kind()).isEqualTo(RecoveryReport.Kind.TORN_TAIL_TRUNCATED);
                        assertThat(e.file()).isEqualTo(seg.toString());
                        assertThat(e.position()).isEqualTo(end);
                    });
            LogQueue q = store.log(Q);
            Fill.assertIntact(q, 0, 50);
            assertThat(q.append(Entry.of(Fill.payload(50)))).isEqualTo(50);
        }
    }

    @Test
    void garbageAfterTheLastBatchDoesNotStopAStoreUnderTheFailPolicyFromOpening() {
        Path seg = writeFifty();
        byte[] garbage = new byte[300];
        new Random(7).nextBytes(garbage);
        StoreFiles.append(seg, garbage);

        EngineConfig fail = EngineConfig.builder().corruptionPolicy(EngineConfig.CorruptionPolicy.FAIL).build();
        try (Mikyu store = Mikyu.open(data, fail)) {
            Fill.assertIntact(store.log(Q), 0, 50);
        }
    }

    @Test
    void aTornTailIsCutUnderTheFailPolicyToo() {
        Path seg = writeFifty();
        StoreFiles.Batch last = StoreFiles.batches(seg).get(49);
        StoreFiles.truncate(seg, last.position() + 50);

        EngineConfig fail = EngineConfig.builder().corruptionPolicy(EngineConfig.CorruptionPolicy.FAIL).build();
        try (Mikyu store = Mikyu.open(data, fail)) {
            assertThat(events(store, RecoveryReport.Kind.TORN_TAIL_TRUNCATED)).hasSize(1);
            Fill.assertIntact(store.log(Q), 0, 49);
        }
    }

    @Test
    void aHalfWrittenBatchBeforePreallocatedZerosIsATornTail() {
        // a sync queue preallocates zeros ahead of its writes; copy the files while the store is open
        Path live = data.resolve("live");
        Path crashed = data.resolve("crashed");
        try (Mikyu store = Mikyu.open(live)) {
            LogQueue q = store.createLog(Q, LogQueueConfig.defaults().withDurability(io.mikyu.engine.Durability.SYNC));
            Fill.append(q, 0, 30);
            store.flush();
            StoreFiles.copyDirectory(live, crashed);
        }
        Path seg = StoreFiles.segments(StoreFiles.logDir(crashed, Q)).get(0);
        assertThat(StoreFiles.indexes(StoreFiles.logDir(crashed, Q))).as("no index: an unclean shutdown").isEmpty();
        List<StoreFiles.Batch> batches = StoreFiles.batches(seg);
        assertThat(batches).hasSize(30);
        assertThat(StoreFiles.size(seg)).as("preallocated").isGreaterThan(batches.get(29).end());
        StoreFiles.Batch last = batches.get(29);
        // the second half of the last batch never reached the disk
        long from = last.position() + last.totalSize() / 2;
        StoreFiles.writeAt(seg, from, new byte[(int) (last.end() - from)]);

        try (Mikyu store = Mikyu.open(crashed)) {
            assertThat(events(store, RecoveryReport.Kind.UNCLEAN_SHUTDOWN_SCAN))
                    .as("the queue's segment is scanned (the transaction log is scanned too)")
                    .filteredOn(e -> e.file().equals(seg.toString()))
                    .hasSize(1);
            assertThat(events(store, RecoveryReport.Kind.TORN_TAIL_TRUNCATED)).singleElement()
                    .satisfies(e -> assertThat(e.position()).isEqualTo(last.position()));
            assertThat(events(store, RecoveryReport.Kind.CORRUPTION_QUARANTINED)).isEmpty();
            LogQueue q = store.log(Q);
            Fill.assertIntact(q, 0, 29);
            assertThat(q.append(Entry.of(Fill.payload(29)))).isEqualTo(29);
        }
    }
}
