package io.mikyu.engine.log;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.support.BackgroundCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code poll(from, max, wait, handler)} shows the same records as {@code read}, in place. */
class InPlacePollTest {

    @TempDir
    Path data;

    @Test
    void handlerSeesEveryRecordInOrderFromCacheAndFromSegmentsAndReturnsWhereToGoOn() throws Exception {
        // a small cache, so most records come from the segment files
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().cacheBytesPerQueue(16 * 1024).build())) {
            LogQueue q = store.createLog("q", LogQueueConfig.defaults().withSegmentBytes(64 * 1024));
            for (int i = 0; i < 500; i++) {
                q.append(new Entry(i % 2 == 0 ? ("k" + i).getBytes(StandardCharsets.UTF_8) : null,
                        Headers.of("n", Integer.toString(i)), ("payload-" + i + "-".repeat(300))
                        .getBytes(StandardCharsets.UTF_8), 1000L + i));
            }
            List<Record> expected = q.read(0, 1000);
            List<Record> seen = new ArrayList<>();
            long next = 0;
            while (next < q.endOffset()) {
                next = q.poll(next, 64, Duration.ZERO, r -> seen.add(r.toRecord()));
            }
            assertThat(next).isEqualTo(500);
            assertThat(seen).hasSize(500);
            for (int i = 0; i < 500; i++) {
                Record a = seen.get(i);
                Record b = expected.get(i);
                assertThat(a.offset()).isEqualTo(b.offset());
                assertThat(a.timestamp()).isEqualTo(b.timestamp());
                assertThat(a.key()).isEqualTo(b.key());
                assertThat(a.payload()).isEqualTo(b.payload());
                assertThat(a.headers()).isEqualTo(b.headers());
            }
            assertThat(q.stats().segments()).as("records came from sealed segments too").isGreaterThan(1);
            assertThat(q.stats().cacheMisses()).as("and from the files, not only the cache").isPositive();
        }
    }

    @Test
    void viewsFrameThePayloadAndKeyWithoutCopying() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("q");
            q.append(Entry.keyed("key", "value"));
            q.append(Entry.tombstone("key"));
            List<String> seen = new ArrayList<>();
            long next = q.poll(0, 10, Duration.ZERO, r -> {
                String key = StandardCharsets.UTF_8.decode(r.key()).toString();
                String payload = r.payload() == null ? "tombstone" : StandardCharsets.UTF_8.decode(r.payload()).toString();
                seen.add(r.offset() + ":" + key + "=" + payload);
            });
            assertThat(next).isEqualTo(2);
            assertThat(seen).containsExactly("0:key=value", "1:key=tombstone");
            assertThat(q.poll(0, 1, Duration.ZERO, r -> { })).as("at most maxRecords").isEqualTo(1);
        }
    }

    @Test
    void waitsForAnAppendAndReturnsTheStartOffsetWhenNothingCame() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("q");
            assertThat(q.poll(0, 10, Duration.ofMillis(50), r -> { })).isZero();
            List<Long> seen = new ArrayList<>();
            // a wait far longer than the test may take: returning proves the append woke it
            try (BackgroundCall<Long> polled = BackgroundCall.start("poller",
                    () -> q.poll(0, 10, Duration.ofMinutes(10), r -> seen.add(r.offset()))).awaitTimedWaiting()) {
                assertThat(polled.isDone()).as("nothing to read yet").isFalse();
                q.append(Entry.of("wake up"));
                assertThat(polled.get()).isEqualTo(1);
            }
            assertThat(seen).containsExactly(0L);
        }
    }
}
