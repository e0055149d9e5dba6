package io.mikyu.engine.internal.log;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.BatchEncoder;
import io.mikyu.engine.internal.format.RecordSink;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RecentBatchCacheTest {

    /** A collection is only requested: give the collector its time on a loaded machine. */
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final Path FILE = Path.of("cache");

    @Test
    void shouldNotKeepTheProducersArrays() {
        // Arrays the cache kept would live for the budget's worth of appends: long enough to be copied by young
        // collections and promoted, only to die in the old generation. It copies them instead.
        RecentBatchCache cache = new RecentBatchCache(4096, 32 << 20);
        List<WeakReference<byte[]>> added = new ArrayList<>();
        long offset = 0;
        for (int i = 0; i < 64; i++) {
            byte[] batch = batch(offset, 8, 1024);
            offset += 8;
            added.add(new WeakReference<>(batch));
            cache.add(batch);
        }

        await("the producers' arrays collected").atMost(DEADLINE).pollInterval(Duration.ofMillis(20))
                .until(() -> stillReachableAfterGc(added) == 0);
        assertThat(readAll(cache, 0, offset)).hasSize((int) offset);
    }

    @Test
    void shouldAllocateItsMemoryOnceAndReuseIt() {
        long budget = 1 << 20;
        RecentBatchCache cache = new RecentBatchCache(4096, budget);
        long offset = 0;
        for (int i = 0; i < 2000; i++) { // about 16 x the budget
            cache.add(batch(offset, 8, 1000));
            offset += 8;
        }

        // The chunks that grow to full size, then the budget's worth of them and a few more, reused ever after.
        assertThat(cache.allocatedBytes()).isLessThanOrEqualTo(2 * budget);
        List<Record> tail = readAll(cache, offset - 64, offset);
        assertThat(tail).extracting(Record::offset).first().isEqualTo(offset - 64);
        assertThat(tail).hasSize(64);
    }

    @Test
    void shouldReuseItsChunksAtTheDefaultBudgetWithBatchesOf64Records() {
        long budget = 32 << 20;
        RecentBatchCache cache = new RecentBatchCache(4096, budget);
        byte[] batch = batch(0, 64, 1024);
        for (int i = 0; i < 10_000; i++) { // about 20 x the budget
            BatchDescriptor.putBaseOffset(batch, i * 64L);
            cache.add(batch);
        }

        // Chunks rarely fill exactly, so the budget's batches span a chunk or two more than the budget's share.
        assertThat(cache.allocatedBytes()).isLessThanOrEqualTo(2 * budget);
        assertThat(readAll(cache, 10_000 * 64L - 64, 10_000 * 64L)).hasSize(64);
    }

    @Test
    void aQueueThatHoldsLittleCostsLittle() {
        RecentBatchCache cache = new RecentBatchCache(4096, 32 << 20);
        cache.add(batch(0, 1, 200));

        assertThat(cache.allocatedBytes()).isLessThanOrEqualTo(RecentBatchCache.FIRST_CHUNK_BYTES);
        // Thirty thousand logs holding a message each: 4 KiB first chunks were a hundred megabytes of them.
        assertThat(cache.allocatedBytes()).as("one small message").isLessThanOrEqualTo(512);
        assertThat(readAll(cache, 0, 1)).hasSize(1);
    }

    @Test
    void theRingStartsSmallAndGrowsToItsSlotCountAsBatchesCome() {
        // Ten thousand queues holding a message each would otherwise hold 4,096 slots each.
        RecentBatchCache cache = new RecentBatchCache(4096, 32 << 20);
        assertThat(cache.slotCapacity()).isEqualTo(RecentBatchCache.FIRST_SLOTS);
        cache.add(batch(0, 1, 100));
        assertThat(cache.slotCapacity()).isEqualTo(RecentBatchCache.FIRST_SLOTS);

        long offset = 1;
        for (; offset < 100; offset++) {
            cache.add(batch(offset, 1, 100));
        }
        assertThat(cache.slotCapacity()).isEqualTo(128);
        assertThat(readAll(cache, 0, offset)).as("nothing lost to the growth").extracting(Record::offset)
                .containsExactlyElementsOf(java.util.stream.LongStream.range(0, offset).boxed().toList());

        for (; offset < 10_000; offset++) {
            cache.add(batch(offset, 1, 100));
        }
        assertThat(cache.slotCapacity()).as("bounded by the slot count").isEqualTo(4096);
        assertThat(readAll(cache, offset - 4096, offset)).hasSize(4096);
        assertThat(readAll(cache, offset - 4097, offset)).as("the ring is full: older batches left").isEmpty();
    }

    @Test
    void shouldServeOnlyTheBudgetsWorthOfRecentBatches() {
        RecentBatchCache cache = new RecentBatchCache(4096, 256 << 10);
        long offset = 0;
        for (int i = 0; i < 200; i++) {
            cache.add(batch(offset, 4, 4000));
            offset += 4;
        }

        assertThat(readAll(cache, 0, offset)).as("evicted long ago").isEmpty();
        List<Record> recent = readAll(cache, offset - 8, offset);
        assertThat(recent).extracting(Record::offset).containsExactly(
                offset - 8, offset - 7, offset - 6, offset - 5, offset - 4, offset - 3, offset - 2, offset - 1);
        assertThat(new String(recent.get(0).payload(), java.nio.charset.StandardCharsets.ISO_8859_1))
                .startsWith("record " + (offset - 8) + " ");
    }

    @Test
    void shouldLetGoOfEverythingOnClear() {
        // A batch larger than a chunk is kept as the array it came in; a clear lets go of it.
        RecentBatchCache cache = new RecentBatchCache(16, 1 << 20);
        byte[] batch = batch(0, 2, 300_000);
        WeakReference<byte[]> ref = new WeakReference<>(batch);
        cache.add(batch);
        batch = null;
        assertThat(readAll(cache, 0, 2)).hasSize(2);

        cache.clear();

        assertThat(readAll(cache, 0, 2)).isEmpty();
        await("the cleared batch collected").atMost(DEADLINE).pollInterval(Duration.ofMillis(20))
                .until(() -> stillReachableAfterGc(List.of(ref)) == 0);
    }

    @Test
    void readersRacingTheWriterSeeEveryRecordIntactOrMiss() throws Exception {
        // A small budget, so the writer reuses chunks all the time while readers decode from them.
        RecentBatchCache cache = new RecentBatchCache(64, 64 << 10);
        AtomicLong published = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong hits = new AtomicLong();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int batches = 5_000;
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            Thread reader = new Thread(() -> {
                try {
                    while (published.get() < batches * 4L && System.nanoTime() < deadline) {
                        long end = published.get();
                        long from = Math.max(0, end - ThreadLocalRandom.current().nextLong(1, 200));
                        List<Record> out = readAll(cache, from, end);
                        long expected = from;
                        for (Record r : out) {
                            assertThat(r.offset()).isEqualTo(expected++);
                            assertThat(new String(r.payload(), java.nio.charset.StandardCharsets.ISO_8859_1))
                                    .startsWith("record " + r.offset() + " ");
                        }
                        if (!out.isEmpty()) {
                            hits.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            reader.start();
            readers.add(reader);
        }
        for (int i = 0; i < batches; i++) {
            long base = i * 4L;
            cache.add(batch(base, 4, 1000 + (i % 7) * 300));
            published.set(base + 4);
        }
        for (Thread reader : readers) {
            reader.join(TimeUnit.SECONDS.toMillis(90));
        }

        assertThat(failure.get()).isNull();
        assertThat(hits.get()).isPositive();
    }

    /** An encoded batch of {@code count} records from {@code base} on, each payload naming its offset. */
    private static byte[] batch(long base, int count, int payloadBytes) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] payload = new byte[payloadBytes];
            byte[] name = ("record " + (base + i) + " ").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            System.arraycopy(name, 0, payload, 0, Math.min(name.length, payload.length));
            entries.add(Entry.of(payload));
        }
        byte[] batch = BatchEncoder.encode(entries, 0, Integer.MAX_VALUE, Integer.MAX_VALUE);
        BatchDescriptor.putBaseOffset(batch, base);
        return batch;
    }

    private static List<Record> readAll(RecentBatchCache cache, long from, long end) {
        List<Record> out = new ArrayList<>();
        cache.read(from, end, RecordSink.toList(out, Integer.MAX_VALUE, Long.MAX_VALUE), FILE);
        return out;
    }

    /** Asks for a collection, then counts the referents still reachable. */
    private static long stillReachableAfterGc(List<WeakReference<byte[]>> refs) {
        System.gc();
        return refs.stream().filter(r -> r.get() != null).count();
    }
}
