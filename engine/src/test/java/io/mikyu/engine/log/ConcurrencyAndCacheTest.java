package io.mikyu.engine.log;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.EngineStats;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
import io.mikyu.engine.support.Payloads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Timeout(60)
class ConcurrencyAndCacheTest {

    @TempDir
    Path data;

    @Test
    void manyThreadsAppendingSynchronouslyGetContiguousUniqueOffsetsAndShareFsyncs() throws Exception {
        int threads = 8;
        int perThread = 2000;
        // The background flusher may also fsync a segment a sync cycle has just written; keep it out of the count.
        EngineConfig quietFlusher = EngineConfig.builder().flushInterval(Duration.ofHours(1)).build();
        try (Mikyu store = Mikyu.open(data, quietFlusher)) {
            LogQueue q = store.createLog("busy", LogQueueConfig.defaults().withDurability(Durability.SYNC));
            EngineStats before = store.stats();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int producer = t;
                results.add(pool.submit(() -> {
                    long[] offsets = new long[perThread];
                    for (int i = 0; i < perThread; i++) {
                        offsets[i] = q.append(Entry.of(Payloads.encode(producer, i)));
                    }
                    return offsets;
                }));
            }
            BitSet seen = new BitSet();
            for (Future<long[]> f : results) {
                long[] offsets = f.get();
                for (int i = 0; i < offsets.length; i++) {
                    if (i > 0) {
                        assertThat(offsets[i]).as("one producer's offsets increase").isGreaterThan(offsets[i - 1]);
                    }
                    assertThat(seen.get((int) offsets[i])).as("offset %d handed out twice", offsets[i]).isFalse();
                    seen.set((int) offsets[i]);
                }
            }
            pool.shutdown();
            int total = threads * perThread;
            assertThat(seen.cardinality()).isEqualTo(total);
            assertThat(seen.nextClearBit(0)).as("contiguous from 0").isEqualTo(total);
            assertThat(q.endOffset()).isEqualTo(total);

            long[] nextSeq = new long[threads];
            for (long from = 0; from < total; ) {
                List<Record> chunk = q.read(from, 4000);
                for (Record r : chunk) {
                    Payloads.Identity id = Payloads.decode(r.payload());
                    assertThat(id.seq()).isEqualTo(nextSeq[id.producer()]++);
                }
                from = chunk.get(chunk.size() - 1).offset() + 1;
            }

            EngineStats after = store.stats();
            long commits = after.commits() - before.commits();
            long requests = after.commitRequests() - before.commitRequests();
            assertThat(requests).isEqualTo(total);
            assertThat((double) requests / commits).as("append calls per group commit (%d commits)", commits)
                    .isGreaterThan(1.0);
            assertThat(after.requestsPerCommit()).isGreaterThan(1.0);
            assertThat(after.fsyncs() - before.fsyncs()).as("one fsync per commit at most")
                    .isPositive().isLessThanOrEqualTo(commits);
            assertThat(after.appendedRecords()).isEqualTo(total);
        }
    }

    @Test
    void aTailingReaderThatKeepsUpIsServedFromTheRingCache() throws Exception {
        int total = 5000;
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("tail");
            AtomicLong consumed = new AtomicLong();
            Thread reader = new Thread(() -> {
                long next = 0;
                try {
                    while (next < total) {
                        List<Record> rs = q.poll(next, 100, Duration.ofSeconds(30));
                        if (rs.isEmpty()) {
                            throw new AssertionError("tail reader starved at " + next);
                        }
                        for (Record r : rs) {
                            assertThat(r.offset()).isEqualTo(next++);
                        }
                        consumed.set(next);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            reader.start();
            for (int i = 0; i < total; i++) {
                q.append(Entry.of("tick-" + i));
                if (i % 100 == 99) {
                    // the reader keeps up: the writer lets it catch up every 100 records
                    long written = i + 1;
                    await("the reader caught up with offset " + written).atMost(Duration.ofSeconds(30))
                            .pollInterval(Duration.ofMillis(1)).until(() -> consumed.get() >= written);
                }
            }
            reader.join(30_000);
            assertThat(reader.isAlive()).isFalse();
            QueueStats stats = q.stats();
            assertThat(stats.readRecords()).isEqualTo(total);
            assertThat(stats.cacheHitRate()).as("hits %d, misses %d", stats.cacheHits(), stats.cacheMisses())
                    .isGreaterThanOrEqualTo(0.95);
            assertThat(store.stats().cacheHitRate()).isGreaterThanOrEqualTo(0.95);
        }
    }

    @Test
    void aReaderFarBehindReadsFromTheSegmentsCorrectly() {
        try (Mikyu store = Mikyu.open(data, io.mikyu.engine.EngineConfig.builder().cacheBytesPerQueue(16 * 1024)
                .build())) {
            LogQueue q = store.createLog("behind", LogQueueConfig.defaults().withSegmentBytes(64 * 1024));
            for (int i = 0; i < 3000; i++) {
                q.append(Entry.of(Payloads.encode(0, i)));
            }
            long seq = 0;
            for (long from = 0; from < 3000; ) {
                List<Record> chunk = q.read(from, 333);
                for (Record r : chunk) {
                    assertThat(Payloads.decode(r.payload()).seq()).isEqualTo(seq++);
                }
                from = chunk.get(chunk.size() - 1).offset() + 1;
            }
            assertThat(q.stats().cacheMisses()).isPositive();
        }
    }
}
