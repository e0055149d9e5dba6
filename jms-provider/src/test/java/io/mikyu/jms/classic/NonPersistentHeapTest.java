package io.mikyu.jms.classic;

import io.mikyu.engine.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A NON_PERSISTENT producer to a queue without consumers, in a child JVM with a 64 MiB heap, sends twice its heap
 * ({@code -Dmikyu.np.floodBytes} changes it) with the default limit (a quarter of the heap): the JVM survives under
 * every policy (with {@code spill}, whose messages are stored ones, the queue's caches made to fit the heap too).
 * {@code block}: the producer waits with at most the limit held, then a consumer drains and the
 * producer finishes; {@code fail}: a clear {@code ResourceAllocationException}; {@code spill}: everything arrives.
 * Without the limit the child dies of {@code OutOfMemoryError}.
 */
@Timeout(300)
class NonPersistentHeapTest {

    private static final String HEAP = "64m";
    private static final long LIMIT = 16L << 20; // 25% of 64 MiB
    private static final long FLOOD = Long.getLong("mikyu.np.floodBytes", 128L << 20);
    private static final Duration DEADLINE = Duration.ofSeconds(240);

    @TempDir
    Path data;

    private ChildProcess flood(String options) throws Exception {
        return ChildProcess.start(data, NonPersistentFlood.class, HEAP, Map.of(),
                "vm://" + data.resolve("store") + "?transientMemoryPolicy=" + options, Long.toString(FLOOD));
    }

    private static long transientAtHeapReport(ChildProcess child) {
        String heap = child.lines("heap ").get(0);
        return Long.parseLong(heap.substring(heap.indexOf(" transient ") + 11));
    }

    @Test
    void blockHoldsTheHeapUntilAConsumerDrainsThenTheProducerFinishes() throws Exception {
        try (ChildProcess child = flood("block")) {
            child.awaitLine("done ", DEADLINE);
            assertThat(child.waitForExit(DEADLINE)).as(child.stderrText()).isZero();
            assertThat(transientAtHeapReport(child)).isPositive().isLessThanOrEqualTo(LIMIT);
            long sent = FLOOD / NonPersistentFlood.BODY;
            assertThat(child.lines("done ")).containsExactly("done " + sent + " " + sent);
        }
    }

    @Test
    void failRefusesWithAClearErrorAndTheJvmLives() throws Exception {
        try (ChildProcess child = flood("fail")) {
            child.awaitLine("done ", DEADLINE);
            assertThat(child.waitForExit(DEADLINE)).as(child.stderrText()).isZero();
            String refused = child.lines("refused ").get(0);
            assertThat(refused).contains("memory limit reached", "'flood'", "transientMemoryLimit");
            long sent = Long.parseLong(refused.split(" ")[1]);
            assertThat(sent).isPositive().isLessThan(FLOOD / NonPersistentFlood.BODY);
            assertThat(transientAtHeapReport(child)).isLessThanOrEqualTo(LIMIT);
            assertThat(child.lines("done ")).containsExactly("done " + sent + " " + sent);
        }
    }

    @Test
    void spillDeliversEverythingAndTheJvmLives() throws Exception {
        // Spilled messages are stored tasks, which two caches of the queue hold as well, each up to
        // cacheBytesPerQueue (32 MiB by default: together the whole of this heap); 4 MiB fits it.
        try (ChildProcess child = flood("spill&cacheBytesPerQueue=4MiB")) {
            child.awaitLine("done ", DEADLINE);
            assertThat(child.waitForExit(DEADLINE)).as(child.stderrText()).isZero();
            assertThat(transientAtHeapReport(child)).isLessThanOrEqualTo(LIMIT);
            long sent = FLOOD / NonPersistentFlood.BODY;
            assertThat(child.lines("done ")).containsExactly("done " + sent + " " + sent);
        }
    }
}
