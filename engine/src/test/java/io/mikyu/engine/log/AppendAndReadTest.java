package io.mikyu.engine.log;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetOutOfRangeException;
import io.mikyu.engine.Record;
import io.mikyu.engine.support.BackgroundCall;
import io.mikyu.engine.support.Fill;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class AppendAndReadTest {

    /** Longer than the class's timeout: a poll that returns did not do so because its wait ended. */
    private static final Duration LONG_WAIT = Duration.ofMinutes(10);

    @TempDir
    java.nio.file.Path data;

    private Mikyu store;
    private LogQueue q;

    @BeforeEach
    void open() {
        store = Mikyu.open(data);
        q = store.createLog("events");
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void reopen() {
        store.close();
        store = Mikyu.open(data);
        q = store.log("events");
    }

    @Test
    void anEmptyQueueStartsAndEndsAtZero() {
        assertThat(q.startOffset()).isZero();
        assertThat(q.endOffset()).isZero();
        assertThat(q.read(0, 10)).isEmpty();
        assertThat(q.name()).isEqualTo("events");
        assertThat(q.config()).isEqualTo(LogQueueConfig.defaults());
    }

    @Test
    void singleAppendsGetConsecutiveOffsetsAndReadBack() {
        assertThat(q.append(Entry.of("a"))).isZero();
        assertThat(q.append(Entry.of("b"))).isEqualTo(1);
        assertThat(q.endOffset()).isEqualTo(2);
        assertThat(q.read(0).payloadAsString()).isEqualTo("a");
        assertThat(q.read(1).payloadAsString()).isEqualTo("b");
        assertThat(q.read(0, 10)).extracting(Record::payloadAsString).containsExactly("a", "b");
    }

    @Test
    void aBatchGetsConsecutiveOffsetsAndReturnsTheFirst() {
        q.append(Entry.of("first"));
        long base = q.appendBatch(List.of(Entry.of("x"), Entry.of("y"), Entry.of("z")));
        assertThat(base).isEqualTo(1);
        assertThat(q.endOffset()).isEqualTo(4);
        assertThat(q.read(1, 10)).extracting(Record::offset).containsExactly(1L, 2L, 3L);
        assertThat(q.read(2).payloadAsString()).isEqualTo("y");
    }

    @Test
    void anEmptyBatchIsRejected() {
        assertThatThrownBy(() -> q.appendBatch(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThat(q.endOffset()).isZero();
    }

    @Test
    void keysHeadersTimestampsAndTombstonesRoundTripFromCacheAndFromDisk() {
        Headers headers = Headers.builder().add("type", "order").add("empty", new byte[0]).add("nil", (byte[]) null)
                .add("type", "override").add("ünï", "ç").build();
        Entry full = new Entry(Fill.bytes("k1"), headers, Fill.bytes("payload"), 1_234_567L);
        Entry emptyPayload = new Entry(null, Headers.EMPTY, new byte[0], 42L);
        Entry tombstone = Entry.tombstone("k1").withTimestamp(99L);
        q.appendBatch(List.of(full, emptyPayload, tombstone));

        for (int pass = 0; pass < 2; pass++) {
            List<Record> rs = q.read(0, 10);
            assertThat(rs).hasSize(3);
            Record r0 = rs.get(0);
            assertThat(r0.keyAsString()).isEqualTo("k1");
            assertThat(r0.timestamp()).isEqualTo(1_234_567L);
            assertThat(r0.payloadAsString()).isEqualTo("payload");
            assertThat(r0.headers()).isEqualTo(headers);
            assertThat(r0.headers().asList()).extracting(Headers.Header::name)
                    .containsExactly("type", "empty", "nil", "type", "ünï");
            assertThat(r0.headers().getString("type")).isEqualTo("override");
            assertThat(r0.headers().get("nil")).isNull();
            assertThat(r0.headers().get("empty")).isEmpty();
            assertThat(r0.headers().getString("ünï")).isEqualTo("ç");
            assertThat(r0.isTombstone()).isFalse();

            Record r1 = rs.get(1);
            assertThat(r1.key()).isNull();
            assertThat(r1.payload()).isEmpty();
            assertThat(r1.isTombstone()).isFalse();
            assertThat(r1.headers().isEmpty()).isTrue();
            assertThat(r1.timestamp()).isEqualTo(42L);

            Record r2 = rs.get(2);
            assertThat(r2.isTombstone()).isTrue();
            assertThat(r2.payload()).isNull();
            assertThat(r2.keyAsString()).isEqualTo("k1");
            assertThat(r2.timestamp()).isEqualTo(99L);
            reopen(); // second pass reads the segment file, not the ring cache
        }
    }

    @Test
    void anEntryWithoutTimestampIsStampedWithTheAppendTime() {
        long appendTime = 1_700_000_000_000L; // not now: the stamp comes from the store's clock
        store.close();
        store = Mikyu.open(data, EngineConfig.builder().timeSource(new SteppableTimeSource(appendTime)).build());
        q = store.log("events");
        q.append(Entry.of("now"));
        assertThat(q.read(0).timestamp()).isEqualTo(appendTime);
    }

    @Test
    void readStopsAtMaxRecords() {
        Fill.append(q, 0, 20);
        assertThat(q.read(5, 3)).extracting(Record::offset).containsExactly(5L, 6L, 7L);
        assertThat(q.read(18, 100)).extracting(Record::offset).containsExactly(18L, 19L);
        assertThat(q.read(0, 0)).isEmpty();
    }

    @Test
    void readStopsAtMaxBytesButAlwaysReturnsAtLeastOneRecord() {
        for (int i = 0; i < 10; i++) {
            q.append(Entry.of(new byte[100]));
        }
        assertThat(q.read(0, 100, 250)).hasSize(2);
        assertThat(q.read(0, 100, 300)).hasSize(3);
        assertThat(q.read(0, 100, 1)).as("one record even if larger than the limit").hasSize(1);
        reopen();
        assertThat(q.read(0, 100, 250)).hasSize(2);
        assertThat(q.read(0, 100, 1)).hasSize(1);
    }

    @Test
    void maxBytesCountsKeyHeadersAndPayload() {
        Entry e = new Entry(new byte[10], Headers.of("h", "12345"), new byte[50], Entry.NO_TIMESTAMP);
        for (int i = 0; i < 5; i++) {
            q.append(e);
        }
        int size = q.read(0).size();
        assertThat(size).isEqualTo(10 + 50 + 1 + 5);
        assertThat(q.read(0, 100, 2L * size)).hasSize(2);
        assertThat(q.read(0, 100, 2L * size + size - 1)).hasSize(2);
    }

    @Test
    void readingAtOrBeyondTheEndIsEmptyAndBelowTheStartReadsFromTheStart() {
        Fill.append(q, 0, 3);
        assertThat(q.read(3, 10)).isEmpty();
        assertThat(q.read(100, 10)).isEmpty();
        assertThat(q.read(-5, 10)).extracting(Record::offset).containsExactly(0L, 1L, 2L);
    }

    @Test
    void readingOneOffsetOutsideTheLogThrowsOffsetOutOfRange() {
        Fill.append(q, 0, 3);
        assertThatThrownBy(() -> q.read(3)).isInstanceOf(OffsetOutOfRangeException.class)
                .hasMessageContaining("events").hasMessageContaining("3");
        assertThatThrownBy(() -> q.read(-1)).isInstanceOf(OffsetOutOfRangeException.class);
        assertThatThrownBy(() -> q.read(1000)).isInstanceOf(OffsetOutOfRangeException.class);
    }

    @Test
    void pollReturnsAsSoonAsAnotherThreadAppends() throws Exception {
        Fill.append(q, 0, 2);
        // a wait far longer than the test may take: returning proves the append woke it
        try (BackgroundCall<List<Record>> polled = BackgroundCall.start("poller",
                () -> q.poll(2, 10, LONG_WAIT)).awaitTimedWaiting()) {
            assertThat(polled.isDone()).isFalse();
            q.append(Entry.of("wake up"));
            assertThat(polled.get()).extracting(Record::payloadAsString).containsExactly("wake up");
        }
    }

    @Test
    void pollReturnsAtOnceWhenRecordsAreThere() throws Exception {
        Fill.append(q, 0, 5);
        // a wait longer than the class's timeout: returning at all proves it did not wait
        assertThat(q.poll(1, 2, LONG_WAIT)).extracting(Record::offset).containsExactly(1L, 2L);
    }

    @Test
    void pollTimesOutEmptyWhenNothingIsAppended() throws Exception {
        Fill.append(q, 0, 1);
        long start = System.nanoTime();
        List<Record> records = q.poll(1, 10, Duration.ofMillis(300));
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(records).isEmpty();
        assertThat(elapsed).as("waited the whole wait (real time)").isGreaterThanOrEqualTo(300L);
    }

    @Test
    void aPollerWaitingForALaterOffsetIsNotWokenByEarlierOnes() throws Exception {
        try (BackgroundCall<List<Record>> polled = BackgroundCall.start("poller",
                () -> q.poll(3, 10, LONG_WAIT)).awaitTimedWaiting()) {
            Fill.append(q, 0, 3);
            assertThat(polled.isDone()).isFalse();
            q.append(Entry.of("third"));
            // had an earlier append ended its wait, it would have returned without offset 3
            assertThat(polled.get()).extracting(Record::offset).containsExactly(3L);
        }
    }

    @Test
    void recordsSurviveACleanReopenWithTheirOffsets() {
        Fill.append(q, 0, 100);
        reopen();
        Fill.assertIntact(q, 0, 100);
        Fill.append(q, 100, 110);
        Fill.assertIntact(q, 0, 110);
    }

    @Test
    void aRecordLargerThanTheReadWindowReadsBackWhole() {
        store.close();
        store = Mikyu.open(data, EngineConfig.builder().cacheBytesPerQueue(0).build());
        q = store.log("events");
        byte[] big = new byte[600 * 1024];
        IntStream.range(0, big.length).forEach(i -> big[i] = (byte) (i * 31));
        q.append(Entry.of("small"));
        q.append(Entry.of(big));
        q.append(Entry.of("after"));
        assertThat(q.read(1).payload()).isEqualTo(big);
        assertThat(q.read(0, 10)).extracting(Record::offset).containsExactly(0L, 1L, 2L);
        reopen();
        assertThat(q.read(1).payload()).isEqualTo(big);
        assertThat(q.read(2).payload()).isEqualTo("after".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void recordsLargerThanTheWritersBufferAndTheSegmentSizeAreStoredWhole() {
        store.close();
        store = Mikyu.open(data, EngineConfig.builder().cacheBytesPerQueue(0).build());
        LogQueue big = store.createLog("big", LogQueueConfig.defaults().withSegmentBytes(64 * 1024)
                .withDurability(io.mikyu.engine.Durability.SYNC));
        byte[] huge = new byte[3 * 1024 * 1024 + 7];
        new java.util.Random(1).nextBytes(huge);
        big.append(Entry.of("before"));
        big.append(Entry.of(huge));
        big.appendBatch(List.of(Entry.of("after-1"), Entry.of(huge), Entry.of("after-2")));
        big.append(Entry.of("tail"));
        checkBig(big, huge);
        store.close();
        store = Mikyu.open(data);
        assertThat(store.recoveryReport().events()).isEmpty();
        checkBig(store.log("big"), huge);
        q = store.log("events");
    }

    private static void checkBig(LogQueue big, byte[] huge) {
        assertThat(big.endOffset()).isEqualTo(6);
        assertThat(big.read(0).payloadAsString()).isEqualTo("before");
        assertThat(big.read(1).payload()).isEqualTo(huge);
        assertThat(big.read(2).payloadAsString()).isEqualTo("after-1");
        assertThat(big.read(3).payload()).isEqualTo(huge);
        assertThat(big.read(4).payloadAsString()).isEqualTo("after-2");
        assertThat(big.read(5).payloadAsString()).isEqualTo("tail");
        assertThat(big.read(0, 10)).extracting(Record::offset).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
    }
}
