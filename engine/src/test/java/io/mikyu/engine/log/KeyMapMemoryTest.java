package io.mikyu.engine.log;

import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.support.ChildProcess;
import io.mikyu.engine.support.CompactedLogModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.mikyu.engine.log.KeyMapMemoryChild.KEYS;
import static io.mikyu.engine.log.KeyMapMemoryChild.UPDATES;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction's memory does not grow with the number of keys: a JVM with a 48 MiB heap compacts a log of 600,000
 * distinct keys, which a {@code HashMap} of key to offset (some 130 bytes a key) could not hold, with the default
 * 16 MiB key map, in two passes. Then every key's newest record is there and nothing else is missing.
 */
@Timeout(300)
class KeyMapMemoryTest {

    @TempDir
    Path work;

    @Test
    void aLogWithMoreKeysThanTheHeapCouldMapIsCompactedInPasses() throws Exception {
        Path store = work.resolve("store");
        long removed;
        long passes;
        try (ChildProcess c = ChildProcess.start(work, KeyMapMemoryChild.class, "48m", Map.of(),
                store.toString())) {
            assertThat(c.waitForExit(Duration.ofSeconds(240))).as("lines %s, stderr:\n%s", c.lines(), c.stderrText())
                    .isZero();
            removed = Long.parseLong(c.lines("REMOVED").get(0).split(" ")[1]);
            System.out.printf("key map memory: %s; %s (ms)%n", c.lines("WRITTEN").get(0), c.lines("REMOVED").get(0));
            passes = Long.parseLong(c.lines("PASSES").get(0).split(" ")[1]);
        }
        assertThat(passes).as("passes of the default key map over %d keys", KEYS).isEqualTo(2);

        // The originals of the updated keys are removed, except those still in the active segment.
        long activeBase = CompactedLogModel.activeSegmentBase(store, "keys");
        Set<Long> superseded = new HashSet<>();
        for (int j = 0; j < UPDATES; j++) {
            long original = KeyMapMemoryChild.updated(j);
            if (original < activeBase) {
                superseded.add(original);
            }
        }
        assertThat(superseded).as("updated keys whose original is in a sealed segment").hasSizeGreaterThan(500);
        assertThat(removed).as("records removed").isEqualTo(superseded.size());

        try (Mikyu s = Mikyu.open(store)) {
            LogQueue q = s.log("keys");
            long expected = 0;
            long kept = 0;
            for (long from = 0; from < q.endOffset(); ) {
                List<Record> chunk = q.read(from, 5000);
                if (chunk.isEmpty()) {
                    break;
                }
                for (Record r : chunk) {
                    while (superseded.contains(expected)) {
                        expected++;
                    }
                    if (r.offset() != expected) {
                        throw new AssertionError("the next record kept is " + expected + ", not " + r.offset());
                    }
                    int key = r.offset() < KEYS ? (int) r.offset()
                            : KeyMapMemoryChild.updated((int) (r.offset() - KEYS));
                    if (!r.keyAsString().equals(KeyMapMemoryChild.key(key))
                            || !r.payloadAsString().equals(KeyMapMemoryChild.value(r.offset()))) {
                        throw new AssertionError("the record at " + r.offset() + " is not the one appended: " + r);
                    }
                    expected++;
                    kept++;
                }
                from = chunk.get(chunk.size() - 1).offset() + 1;
            }
            assertThat(kept).isEqualTo(KEYS + UPDATES - superseded.size());
        }
    }
}
