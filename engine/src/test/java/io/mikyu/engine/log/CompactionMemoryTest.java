package io.mikyu.engine.log;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction's memory does not grow with the segment: a JVM with a 48 MiB heap compacts a 64 MiB segment (records
 * are read and rewritten a bounded chunk at a time). Many keys are {@link KeyMapMemoryTest}'s; this test keeps them
 * few.
 */
@Timeout(120)
class CompactionMemoryTest {

    @TempDir
    Path work;

    @Test
    void aSegmentLargerThanTheHeapIsCompacted() throws Exception {
        Path store = work.resolve("store");
        try (ChildProcess c = ChildProcess.start(work, CompactionMemoryChild.class, "48m", Map.of(),
                store.toString())) {
            assertThat(c.waitForExit(Duration.ofSeconds(100))).as("lines %s, stderr:\n%s", c.lines(), c.stderrText())
                    .isZero();
            assertThat(c.lines("REMOVED")).singleElement().satisfies(l ->
                    assertThat(Long.parseLong(l.split(" ")[1])).as("superseded records removed").isPositive());
        }
        try (Mikyu s = Mikyu.open(store)) {
            long kept = 0;
            for (long from = 0; from < s.log("big").endOffset(); ) {
                List<Record> chunk = s.log("big").read(from, 16);
                if (chunk.isEmpty()) {
                    break;
                }
                kept += chunk.size();
                from = chunk.get(chunk.size() - 1).offset() + 1;
            }
            Map<String, Long> newest = new HashMap<>();
            for (int i = 0; i < CompactionMemoryChild.RECORDS; i++) {
                newest.put(CompactionMemoryChild.key(i), (long) i);
            }
            assertThat(kept).as("fewer records than written").isLessThan(CompactionMemoryChild.RECORDS);
            for (Entry<String, Long> e : newest.entrySet()) {
                Record r = s.log("big").read(e.getValue());
                assertThat(r).as("the newest record of %s is kept", e.getKey()).isNotNull();
                assertThat(r.offset()).isEqualTo(e.getValue());
                assertThat(r.payload()[0]).isEqualTo((byte) (long) e.getValue());
            }
        }
    }
}
