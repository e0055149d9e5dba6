package io.mikyu.engine.body;

import io.mikyu.engine.BodyUpload;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LargeBody;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.Transaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static io.mikyu.engine.body.BodyStoreTest.PatternStream;
import static io.mikyu.engine.body.BodyStoreTest.digest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Large bodies named by log records (JMS topics): a body is kept while a retained record names it, whoever has read
 * it, and freed when retention or compaction removes the record, when the log is deleted, or when the transaction
 * that would have appended it rolls back.
 */
class LogBodyTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /** Small segments, so a few appends seal the one holding the record and retention can drop it. */
    private static final LogQueueConfig SMALL_SEGMENTS = LogQueueConfig.defaults()
            .withSegmentBytes(LogQueueConfig.MIN_SEGMENT_BYTES);

    @TempDir
    Path data;

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().housekeepingInterval(Duration.ofMillis(20)).build());
    }

    private Path fileOf(LargeBody body) {
        return data.resolve("bodies").resolve(body.id() + ".body");
    }

    private static LargeBody upload(Mikyu store, long length, int seed) throws Exception {
        try (BodyUpload up = store.uploadBody()) {
            up.writeFrom(new PatternStream(length, seed));
            return up.publish();
        }
    }

    /** Appends a record naming a new body, closing the upload only once the record is written (as a sender does). */
    private static LargeBody appendNaming(LogQueue log, Mikyu store, Entry entry, long length, int seed)
            throws Exception {
        try (BodyUpload up = store.uploadBody()) {
            up.writeFrom(new PatternStream(length, seed));
            LargeBody body = up.publish();
            log.append(entry.withHeaders(body.addTo(Headers.of("k", "v"))));
            return body;
        }
    }

    /** Waits until the sweep has run twice since now: an orphan made now is deleted. */
    private void awaitTwoSweeps(Mikyu store) throws Exception {
        LargeBody orphan = upload(store, 10, 0);
        await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(orphan)));
    }

    private static void fillSegments(LogQueue log, int records) {
        for (int i = 0; i < records; i++) {
            log.append(Entry.of(new byte[512]));
        }
    }

    @Test
    void shouldKeepABodyWhileItsRecordIsRetainedAndFreeItWhenRetentionDropsIt() throws Exception {
        try (Mikyu store = open()) {
            LogQueue log = store.createLog("prices", SMALL_SEGMENTS.withRetentionBytes(LogQueueConfig.MIN_SEGMENT_BYTES));
            fillSegments(log, 3);
            LargeBody body = appendNaming(log, store, Entry.of("small part"), 200_000, 1);
            awaitTwoSweeps(store);
            assertThat(fileOf(body)).as("named by a retained record, read by nobody").exists();
            Record r = log.read(log.startOffset(), 10, Long.MAX_VALUE).stream()
                    .filter(x -> x.headers().getString(LargeBody.ID_HEADER) != null).findFirst().orElseThrow();
            try (InputStream in = store.openBody(LargeBody.of(r.headers()).orElseThrow())) {
                assertThat(digest(in)).isEqualTo(digest(new PatternStream(200_000, 1)));
            }

            fillSegments(log, 40); // seals the segment holding the record
            assertThat(log.applyRetention()).isPositive();
            assertThat(log.startOffset()).isGreaterThan(r.offset());
            await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(body)));
        }
    }

    @Test
    void shouldFindTheBodiesItsRecordsNameAfterAReopen() throws Exception {
        LargeBody body;
        try (Mikyu store = open()) {
            LogQueue log = store.createLog("prices");
            fillSegments(log, 5);
            body = appendNaming(log, store, Entry.of("small part"), 70_000, 2);
            fillSegments(log, 5);
        }
        try (Mikyu store = open()) {
            awaitTwoSweeps(store);
            assertThat(fileOf(body)).exists();
            try (InputStream in = store.openBody(body)) {
                assertThat(digest(in)).isEqualTo(digest(new PatternStream(70_000, 2)));
            }
            store.deleteLog("prices");
            await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(body)));
        }
    }

    @Test
    void shouldFreeTheBodyOfARecordCompactionReplaced() throws Exception {
        try (Mikyu store = open()) {
            LogQueue log = store.createLog("state", SMALL_SEGMENTS.withCompaction(true));
            LargeBody old = appendNaming(log, store, Entry.keyed("doc", "v1"), 30_000, 3);
            LargeBody kept = appendNaming(log, store, Entry.keyed("doc", "v2"), 30_000, 4);
            fillSegments(log, 40); // seals both
            log.compact(); // housekeeping may have compacted them already
            assertThat(log.read(log.startOffset(), 100, Long.MAX_VALUE))
                    .filteredOn(r -> r.headers().getString(LargeBody.ID_HEADER) != null).hasSize(1);
            await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(old)));
            awaitTwoSweeps(store);
            assertThat(fileOf(kept)).as("the newest of its key").exists();
        }
    }

    @Test
    void shouldKeepTheBodyOfACommittedTransactionAndFreeARolledBackOne() throws Exception {
        try (Mikyu store = open()) {
            store.createLog("prices");
            LargeBody committed;
            try (BodyUpload up = store.uploadBody(); Transaction tx = store.beginTransaction()) {
                up.writeFrom(new PatternStream(40_000, 5));
                committed = up.publish();
                tx.append("prices", Entry.of("a").withHeaders(committed.addTo(Headers.EMPTY)));
                awaitTwoSweeps(store);
                assertThat(fileOf(committed)).as("its upload open until the decision").exists();
                tx.commit();
            }
            LargeBody rolledBack;
            try (BodyUpload up = store.uploadBody(); Transaction tx = store.beginTransaction()) {
                up.writeFrom(new PatternStream(40_000, 6));
                rolledBack = up.publish();
                tx.append("prices", Entry.of("b").withHeaders(rolledBack.addTo(Headers.EMPTY)));
                tx.rollback();
            }
            await().atMost(DEADLINE).until(() -> !Files.exists(fileOf(rolledBack)));
            assertThat(fileOf(committed)).exists();
        }
    }
}
