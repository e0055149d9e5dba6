package io.mikyu.engine.internal.cache;

import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RecentBatchCacheTest {

    @Test
    void shouldLetGoOfBatchesEvictedByTheByteBudget() throws InterruptedException {
        RecentBatchCache cache = new RecentBatchCache(4096, 1 << 20);
        List<WeakReference<byte[]>> added = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            byte[] batch = new byte[256 << 10];
            added.add(new WeakReference<>(batch));
            cache.add(batch);
        }

        // Only what the 1 MiB budget holds may stay reachable: the last four.
        long reachable = Long.MAX_VALUE;
        for (int i = 0; i < 20 && reachable > 4; i++) {
            System.gc();
            Thread.sleep(20);
            reachable = added.stream().filter(r -> r.get() != null).count();
        }
        assertThat(reachable).isLessThanOrEqualTo(4);
        assertThat(added.get(63).get()).isNotNull();
    }

    @Test
    void shouldLetGoOfEverythingOnClear() throws InterruptedException {
        RecentBatchCache cache = new RecentBatchCache(16, 1 << 20);
        byte[] batch = new byte[1024];
        WeakReference<byte[]> ref = new WeakReference<>(batch);
        cache.add(batch);
        batch = null;

        cache.clear();
        awaitCollection(ref);

        assertThat(ref.get()).isNull();
    }

    private static void awaitCollection(WeakReference<byte[]> ref) throws InterruptedException {
        for (int i = 0; i < 20 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
    }
}
