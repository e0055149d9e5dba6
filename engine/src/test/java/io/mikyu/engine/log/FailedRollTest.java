package io.mikyu.engine.log;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.internal.files.FaultyFileChannels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A full segment whose successor cannot be created (the disk full as the new file's header is written): every
 * append of that group commit fails, so none of them may be stored, also those that still fitted in the old
 * segment; and once space returns the log goes on in a new segment.
 */
@Timeout(120)
class FailedRollTest {

    private static final EngineConfig CONFIG = EngineConfig.builder().minFreeDiskBytes(0).build();

    @TempDir
    Path data;

    @Test
    void appendsOfAGroupCommitWhoseRollFailedAreNotStored() throws Exception {
        Set<String> acked = ConcurrentHashMap.newKeySet();
        Set<String> failed = ConcurrentHashMap.newKeySet();
        try (FaultyFileChannels disk = FaultyFileChannels.install(data); Mikyu store = Mikyu.open(data, CONFIG)) {
            LogQueue q = store.createLog("q", LogQueueConfig.defaults().withDurability(Durability.SYNC)
                    .withSegmentBytes(4096));
            // Every new segment after the first one fails to be written: each roll fails.
            disk.failWritesWithNoSpace(f -> f.getFileName().toString().endsWith(".seg")
                    && !f.getFileName().toString().startsWith("00000000000000000000"));
            ExecutorService producers = Executors.newFixedThreadPool(4);
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                running.add(producers.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        String payload = "p" + thread + "-" + i + "-" + "x".repeat(200);
                        try {
                            q.append(Entry.of(payload));
                            acked.add(payload);
                        } catch (RuntimeException e) {
                            failed.add(payload);
                        }
                    }
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            producers.shutdown();
            assertThat(failed).as("the rolls failed").isNotEmpty();
            assertThat(payloads(q)).as("what the log shows: the acknowledged appends, none that failed")
                    .containsExactlyInAnyOrderElementsOf(acked);

            disk.heal();
            q.append(Entry.of("after space returned"));
            assertThat(payloads(q)).contains("after space returned").doesNotContainAnyElementsOf(failed);
        }
        try (Mikyu store = Mikyu.open(data, CONFIG)) {
            List<String> recovered = payloads(store.log("q"));
            assertThat(recovered).as("after reopening").containsAll(acked).contains("after space returned")
                    .doesNotContainAnyElementsOf(failed);
        }
    }

    private static List<String> payloads(LogQueue q) {
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        for (long from = q.startOffset(); ; ) {
            List<Record> chunk = q.read(from, 1000);
            if (chunk.isEmpty()) {
                return out;
            }
            chunk.forEach(r -> out.add(r.payloadAsString()));
            from = chunk.get(chunk.size() - 1).offset() + 1;
        }
    }
}
