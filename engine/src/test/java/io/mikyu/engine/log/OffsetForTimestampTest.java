package io.mikyu.engine.log;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.support.Fill;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OffsetForTimestampTest {

    private static final long T0 = 1_650_000_000_000L;

    @TempDir
    Path data;

    @Test
    void findsTheFirstRecordAtOrAfterATimeAcrossSegmentsAndAfterReopen() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("t", LogQueueConfig.defaults().withSegmentBytes(4096));
            for (int i = 0; i < 300; i++) {
                q.append(Entry.of(Fill.payload(i)).withTimestamp(T0 + i * 10L));
            }
            assertTimes(q);
        }
        try (Mikyu store = Mikyu.open(data)) {
            assertTimes(store.log("t"));
        }
    }

    private static void assertTimes(LogQueue q) {
        assertThat(q.offsetForTimestamp(0)).isZero();
        assertThat(q.offsetForTimestamp(T0)).isZero();
        assertThat(q.offsetForTimestamp(T0 + 1)).isEqualTo(1);
        for (int i = 0; i < 300; i += 13) {
            assertThat(q.offsetForTimestamp(T0 + i * 10L)).isEqualTo(i);
            assertThat(q.offsetForTimestamp(T0 + i * 10L - 5)).isEqualTo(i);
        }
        assertThat(q.offsetForTimestamp(T0 + 2990)).isEqualTo(299);
        assertThat(q.offsetForTimestamp(T0 + 2991)).as("none: the end").isEqualTo(300);
    }

    @Test
    void producerClocksThatDisagreeStillGiveTheFirstOffsetAtOrAfterTheTime() {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("t");
            for (long ts : List.of(100L, 300L, 200L, 400L, 250L)) {
                q.append(Entry.of("ts" + ts).withTimestamp(ts));
            }
            assertThat(q.offsetForTimestamp(150)).isEqualTo(1);
            assertThat(q.offsetForTimestamp(250)).isEqualTo(1);
            assertThat(q.offsetForTimestamp(301)).isEqualTo(3);
            assertThat(q.offsetForTimestamp(401)).isEqualTo(5);
        }
    }

    @Test
    void anEmptyQueueAnswersItsEnd() {
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(store.createLog("t").offsetForTimestamp(T0)).isZero();
        }
    }
}
