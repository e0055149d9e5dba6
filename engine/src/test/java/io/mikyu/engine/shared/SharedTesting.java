package io.mikyu.engine.shared;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskQueueConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Settings and helpers shared by the shared-group tests. */
final class SharedTesting {

    static final Duration LONG_LEASE = Duration.ofSeconds(60);
    static final Duration BACKOFF = Duration.ofMillis(100);

    private SharedTesting() {
    }

    /** Short backoff (100 ms doubling to 400 ms), {@code maxAttempts} deliveries, a window of {@code maxInFlight}. */
    static SharedGroupConfig config(int maxInFlight, int maxAttempts) {
        return new SharedGroupConfig(maxInFlight, TaskQueueConfig.defaults().withSegmentBytes(4L << 20)
                .withBackoff(BACKOFF, 2.0, Duration.ofMillis(400)).withMaxAttempts(maxAttempts));
    }

    static SharedGroupConfig config() {
        return config(10_000, 10);
    }

    /** Appends {@code "r<i>"} for i in [from, to) in batches; returns nothing, offsets are i if the log was empty. */
    static void fill(LogQueue q, int from, int to) {
        List<Entry> batch = new ArrayList<>();
        for (int i = from; i < to; i++) {
            batch.add(Entry.of("r" + i));
            if (batch.size() == 500) {
                q.appendBatch(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            q.appendBatch(batch);
        }
    }

    static List<Long> offsets(List<SharedGroup.Delivery> ds) {
        return ds.stream().map(d -> d.record().offset()).toList();
    }
}
