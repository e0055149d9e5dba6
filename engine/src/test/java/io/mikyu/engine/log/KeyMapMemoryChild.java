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
 * key map, prints {@code WRITTEN <offset> <ms>}, {@code REMOVED <n> <ms>} and {@code PASSES <n>} and exits.
 */
public final class KeyMapMemoryChild {

    static final int KEYS = 600_000;
    static final int UPDATES = 1000;
    static final long SEGMENT_BYTES = 4L << 20;

    private KeyMapMemoryChild() {
    }

    static String key(int i) {
        String digits = Integer.toString(i);
        return "key-" + "0000000".substring(digits.length()) + digits;
    }

    /** The key the {@code j}-th update writes: spread over the whole log. */
    static int updated(int j) {
        return (int) ((j * 997L) % KEYS);
    }

    static String value(long offset) {
        return "v" + offset;
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    public static void main(String[] args) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        EngineConfig config = EngineConfig.builder().cacheBytesPerQueue(1 << 20).meterRegistry(meters)
                .housekeepingInterval(Duration.ofHours(1)).build();
        try (Mikyu store = Mikyu.open(Path.of(args[0]), config)) {
            LogQueue q = store.createLog("keys", LogQueueConfig.defaults().withSegmentBytes(SEGMENT_BYTES)
                    .withCompaction(true));
            long started = System.nanoTime();
            List<Entry> batch = new ArrayList<>();
            for (int i = 0; i < KEYS + UPDATES; i++) {
                int k = i < KEYS ? i : updated(i - KEYS);
                batch.add(Entry.keyed(key(k), value(i)));
                if (batch.size() == 1000) {
                    q.appendBatch(batch);
                    batch.clear();
                }
            }
            ChildProcess.println("WRITTEN " + q.endOffset() + " " + millisSince(started));
            long compacting = System.nanoTime();
            ChildProcess.println("REMOVED " + q.compact() + " " + millisSince(compacting));
            ChildProcess.println("PASSES " + (long) meters.get("mikyu.queue.compaction.passes").functionCounter()
                    .count());
        }
    }
}
