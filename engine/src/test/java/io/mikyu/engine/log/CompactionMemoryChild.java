package io.mikyu.engine.log;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.support.ChildProcess;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * The child of {@link CompactionMemoryTest}, run with a heap smaller than one segment: writes
 * {@value #RECORDS} records of 64 KiB over {@value #KEYS} keys into a compacted log with 64 MiB segments (one
 * sealed segment and the start of the next), compacts, prints {@code REMOVED <n>} and exits.
 */
public final class CompactionMemoryChild {

    static final int KEYS = 50;
    static final int RECORDS = 1100;
    static final long SEGMENT_BYTES = 64L << 20;

    private CompactionMemoryChild() {
    }

    static String key(int i) {
        return "k" + (i % KEYS);
    }

    public static void main(String[] args) {
        EngineConfig config = EngineConfig.builder().cacheBytesPerQueue(1 << 20)
                .housekeepingInterval(Duration.ofHours(1)).build();
        try (Mikyu store = Mikyu.open(Path.of(args[0]), config)) {
            LogQueue q = store.createLog("big", LogQueueConfig.defaults().withSegmentBytes(SEGMENT_BYTES)
                    .withCompaction(true));
            byte[] value = new byte[64 * 1024];
            for (int i = 0; i < RECORDS; i++) {
                Arrays.fill(value, (byte) i);
                q.append(new Entry(key(i).getBytes(StandardCharsets.UTF_8), Headers.EMPTY, value.clone(),
                        Entry.NO_TIMESTAMP));
            }
            ChildProcess.println("WRITTEN " + q.endOffset());
            ChildProcess.println("REMOVED " + q.compact());
        }
    }
}
