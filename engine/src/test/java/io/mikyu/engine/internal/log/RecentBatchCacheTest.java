package io.mikyu.engine.internal.log;

import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RecentBatchCacheTest {

    /** A collection is only requested: give the collector its time on a loaded machine. */
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Test
    void shouldLetGoOfBatchesEvictedByTheByteBudget() {
        RecentBatchCache cache = new RecentBatchCache(4096, 1 << 20);
        List<WeakReference<byte[]>> added = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            byte[] batch = new byte[256 << 10];
            added.add(new WeakReference<>(batch));
            cache.add(batch);
        }

        // Only what the 1 MiB budget holds may stay reachable: the last four.
        await("the evicted batches collected").atMost(DEADLINE).pollInterval(Duration.ofMillis(20))
                .until(() -> stillReachableAfterGc(added) <= 4);
        assertThat(added.get(63).get()).isNotNull();
    }

    @Test
    void shouldLetGoOfEverythingOnClear() {
        RecentBatchCache cache = new RecentBatchCache(16, 1 << 20);
        byte[] batch = new byte[1024];
        WeakReference<byte[]> ref = new WeakReference<>(batch);
        cache.add(batch);
        batch = null;

        cache.clear();

        await("the cleared batch collected").atMost(DEADLINE).pollInterval(Duration.ofMillis(20))
                .until(() -> stillReachableAfterGc(List.of(ref)) == 0);
    }

    /** Asks for a collection, then counts the referents still reachable. */
    private static long stillReachableAfterGc(List<WeakReference<byte[]>> refs) {
        System.gc();
        return refs.stream().filter(r -> r.get() != null).count();
    }
}
