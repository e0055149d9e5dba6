package io.mikyu.engine.log;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.engine.EncodedBatchHandler;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordView;
import io.mikyu.engine.spi.BatchCodec;
import io.mikyu.engine.support.BackgroundCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code pollEncoded} shows transports the stored batches as they are, and {@code EncodedBatch} reads them back. */
class EncodedPollTest {

    @TempDir
    Path data;

    /** Collects the batches (copied) and the one-by-one records a poll shows. */
    private static final class Collected implements EncodedBatchHandler {
        final List<byte[]> batches = new ArrayList<>();
        final List<Record> records = new ArrayList<>();

        @Override
        public void onBatch(ByteBuffer batch) {
            byte[] copy = new byte[batch.remaining()];
            batch.duplicate().get(copy);
            batches.add(copy);
        }

        @Override
        public void onRecord(RecordView record) {
            records.add(record.toRecord());
        }

        List<Record> decoded(long from) {
            List<Record> out = new ArrayList<>();
            long next = from;
            for (byte[] b : batches) {
                next = BatchCodec.forEachRecord(ByteBuffer.wrap(b), next, Integer.MAX_VALUE,
                        r -> out.add(r.toRecord()), "test");
            }
            return out;
        }
    }

    private static List<Entry> entries(int from, int count) {
        return IntStream.range(from, from + count).mapToObj(i -> Entry.of("record-" + i)).toList();
    }

    @Test
    void wholeBatchesFromTheCacheAndTheSegmentsCarryEveryRecordFromTheOffsetAskedFor() throws Exception {
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().cacheBytesPerQueue(16 * 1024).build())) {
            LogQueue q = store.createLog("q", LogQueueConfig.defaults().withSegmentBytes(64 * 1024));
            for (int b = 0; b < 100; b++) {
                q.appendBatch(entries(b * 10, 10));
            }
            List<Record> seen = new ArrayList<>();
            long next = 5;
            while (next < q.endOffset()) {
                Collected c = new Collected();
                long after = q.pollEncoded(next, 4096, Integer.MAX_VALUE, Duration.ZERO, c);
                assertThat(c.batches).isNotEmpty();
                assertThat(c.records).isEmpty();
                List<Record> got = c.decoded(next);
                assertThat(got.get(0).offset()).isEqualTo(next);
                assertThat(after).isEqualTo(got.get(got.size() - 1).offset() + 1);
                seen.addAll(got);
                next = after;
            }
            assertThat(seen).extracting(Record::payloadAsString)
                    .containsExactlyElementsOf(IntStream.range(5, 1000).mapToObj(i -> "record-" + i).toList());
            assertThat(q.stats().cacheMisses()).as("some came from the segment files").isPositive();
        }
    }

    @Test
    void aPollStopsAtItsByteLimitButAlwaysShowsOneBatch() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("q");
            q.appendBatch(entries(0, 50));
            q.appendBatch(entries(50, 50));
            Collected one = new Collected();
            assertThat(q.pollEncoded(0, 1, Integer.MAX_VALUE, Duration.ZERO, one)).isEqualTo(50);
            assertThat(one.batches).hasSize(1);
            Collected both = new Collected();
            assertThat(q.pollEncoded(0, 1 << 20, Integer.MAX_VALUE, Duration.ZERO, both)).isEqualTo(100);
            assertThat(both.batches).hasSize(2);
        }
    }

    @Test
    void aBatchOverTheCallersLimitComesRecordByRecord() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("q");
            q.appendBatch(entries(0, 100));
            Collected c = new Collected();
            assertThat(q.pollEncoded(40, 1 << 20, 256, Duration.ZERO, c)).isEqualTo(100);
            assertThat(c.batches).isEmpty();
            assertThat(c.records).extracting(Record::offset).containsExactlyElementsOf(
                    IntStream.range(40, 100).mapToLong(i -> i).boxed().toList());
        }
    }

    @Test
    void aPollWaitsForTheNextAppendOrReturnsWhereItStarted() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("q");
            assertThat(q.pollEncoded(0, 1024, Integer.MAX_VALUE, Duration.ofMillis(50), new Collected())).isZero();
            Collected c = new Collected();
            try (BackgroundCall<Long> waiting = BackgroundCall.start("poller",
                    () -> q.pollEncoded(0, 1024, Integer.MAX_VALUE, Duration.ofMinutes(10), c)).awaitTimedWaiting()) {
                assertThat(waiting.isDone()).as("nothing to read yet").isFalse();
                q.append(Entry.of("late"));
                assertThat(waiting.get()).as("woken by the append").isEqualTo(1);
            }
            assertThat(c.decoded(0)).extracting(Record::payloadAsString).containsExactly("late");
        }
    }

    @Test
    void readingADamagedBatchBackFailsNamingTheSource() {
        byte[] bytes = BatchCodec.encode(entries(0, 3)).bytes();
        bytes[bytes.length - 2] ^= 0x40;
        assertThatThrownBy(() -> BatchCodec.forEachRecord(ByteBuffer.wrap(bytes), 0, 10, r -> { }, "broker-answer"))
                .isInstanceOf(CorruptionException.class).hasMessageContaining("checksum")
                .hasMessageContaining("broker-answer");
    }
}
