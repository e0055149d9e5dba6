package io.mikyu.engine.log;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.support.Fill;
import io.mikyu.engine.support.StoreFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RetentionTest {

    private static final LogQueueConfig SMALL = LogQueueConfig.defaults().withSegmentBytes(4096);

    @TempDir
    Path data;

    @Test
    void sealedSegmentsOlderThanTheAgeLimitAreDroppedAndNewerRecordsKept() {
        long old = System.currentTimeMillis() - Duration.ofHours(3).toMillis();
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("age", SMALL.withRetentionAge(Duration.ofHours(1)));
            for (int i = 0; i < 100; i++) {
                q.append(Entry.of(Fill.payload(i)).withTimestamp(old));
            }
            Fill.append(q, 100, 150);
            int segmentsBefore = q.stats().segments();
            long removed = q.applyRetention();

            assertThat(removed).isPositive().isEqualTo(q.startOffset());
            assertThat(q.startOffset()).isLessThanOrEqualTo(100);
            assertThat(q.stats().segments()).isLessThan(segmentsBefore);
            assertThat(StoreFiles.segments(StoreFiles.logDir(data, "age"))).hasSize(q.stats().segments());
            Fill.assertIntact(q, q.startOffset(), 150);
            assertThat(q.read(0, 1)).extracting(Record::offset).containsExactly(q.startOffset());
            assertThat(q.applyRetention()).as("nothing more to drop").isZero();
            Fill.append(q, 150, 151);
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("age");
            assertThat(q.startOffset()).isPositive();
            Fill.assertIntact(q, q.startOffset(), 151);
        }
    }

    @Test
    void theActiveSegmentIsKeptEvenWhenAllItsRecordsAreOld() {
        long old = System.currentTimeMillis() - Duration.ofDays(3).toMillis();
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("age", LogQueueConfig.defaults().withRetentionAge(Duration.ofHours(1)));
            for (int i = 0; i < 20; i++) {
                q.append(Entry.of(Fill.payload(i)).withTimestamp(old));
            }
            assertThat(q.applyRetention()).isZero();
            Fill.assertIntact(q, 0, 20);
            assertThat(q.append(Entry.of("next"))).isEqualTo(20);
        }
    }

    @Test
    void sizeRetentionDropsTheOldestSegmentsUntilTheQueueFits() {
        long limit = 3 * 4096;
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("size", SMALL.withRetentionBytes(limit));
            Fill.append(q, 0, 300);
            assertThat(q.stats().bytesOnDisk()).isGreaterThan(limit);
            long removed = q.applyRetention();
            assertThat(removed).isPositive().isEqualTo(q.startOffset());
            assertThat(q.stats().bytesOnDisk()).isLessThanOrEqualTo(limit);
            Fill.assertIntact(q, q.startOffset(), 300);
            assertThat(q.stats().records()).isEqualTo(300 - q.startOffset());
        }
    }

    @Test
    void retentionRunsInTheBackground() throws Exception {
        long old = System.currentTimeMillis() - Duration.ofHours(3).toMillis();
        EngineConfig fast = EngineConfig.builder().housekeepingInterval(Duration.ofMillis(50)).build();
        try (Mikyu store = Mikyu.open(data, fast)) {
            LogQueue q = store.createLog("bg", SMALL.withRetentionAge(Duration.ofHours(1)));
            for (int i = 0; i < 100; i++) {
                q.append(Entry.of(Fill.payload(i)).withTimestamp(old));
            }
            await("retention by the housekeeper").atMost(Duration.ofSeconds(30)).until(() -> q.startOffset() > 0);
        }
    }

    @Test
    void aQueueWithoutLimitsKeepsEverything() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("keep", SMALL);
            for (int i = 0; i < 100; i++) {
                q.append(Entry.of(Fill.payload(i)).withTimestamp(1L));
            }
            assertThat(q.applyRetention()).isZero();
            assertThat(q.startOffset()).isZero();
            List<Record> all = q.read(0, 1000);
            assertThat(all).hasSize(100);
        }
    }
}
