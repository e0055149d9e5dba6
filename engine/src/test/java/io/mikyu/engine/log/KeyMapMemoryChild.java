package io.mikyu.engine.log;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.support.ChildProcess;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The child of {@link KeyMapMemoryTest}, run with a heap far too small for a {@code HashMap} of its keys: appends
 * {@value #KEYS} records with distinct keys, then updates {@value #UPDATES} of them, compacts with the default
 * key map, prints {@code REMOVED <n>} and {@code PASSES <n>} and exits.
 */
public final class KeyMapMemoryChild {

    static final int KEYS = 800_000;
    static final int UPDATES = 1000;
    static final long SEGMENT_BYTES = 4L << 20;

    private KeyMapMemoryChild() {
    }

    static String key(int i) {
        return String.format("key-%07d", i);
    }

    /** The key the {@code j}-th update writes: spread over the whole log. */
    static int updated(int j) {
        return (int) ((j * 997L) % KEYS);
    }

    static String value(long offset) {
        return "v" + offset;
    }

    public static void main(String[] args) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        EngineConfig config = EngineConfig.builder().cacheBytesPerQueue(1 << 20).meterRegistry(meters)
                .housekeepingInterval(Duration.ofHours(1)).build();
        try (Mikyu store = Mikyu.open(Path.of(args[0]), config)) {
            LogQueue q = store.createLog("keys", LogQueueConfig.defaults().withSegmentBytes(SEGMENT_BYTES)
                    .withCompaction(true));
            List<Entry> batch = new ArrayList<>();
            for (int i = 0; i < KEYS + UPDATES; i++) {
                int k = i < KEYS ? i : updated(i - KEYS);
                batch.add(Entry.keyed(key(k), value(i)));
                if (batch.size() == 1000) {
                    q.appendBatch(batch);
                    batch.clear();
                }
            }
            ChildProcess.println("WRITTEN " + q.endOffset());
            ChildProcess.println("REMOVED " + q.compact());
            ChildProcess.println("PASSES " + (long) meters.get("mikyu.queue.compaction.passes").functionCounter()
                    .count());
        }
    }
}
