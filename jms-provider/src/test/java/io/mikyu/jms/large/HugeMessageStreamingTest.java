package io.mikyu.jms.large;

import io.mikyu.engine.support.ChildProcess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 1 GiB BytesMessage streamed through a vm:// queue by a sending JVM and a receiving JVM, each with a 256 MiB heap:
 * the body is never held whole, and arrives byte for byte. {@code -Dmikyu.large.bytes=N} changes the size.
 */
@Tag("faults")
@Timeout(1800)
class HugeMessageStreamingTest {

    private static final long BYTES = Long.getLong("mikyu.large.bytes", 1L << 30);

    @TempDir
    Path data;

    @Test
    void aOneGibMessageStreamsThroughVmWithSmallHeaps() throws Exception {
        String url = "vm://" + data.resolve("store") + "?durability=sync";
        long started = System.nanoTime();
        try (ChildProcess sender = ChildProcess.start(data, LargeStreamChild.class, "256m", Map.of(), "send", url,
                Long.toString(BYTES))) {
            sender.awaitLine("sent", Duration.ofMinutes(20));
            assertThat(sender.waitForExit(Duration.ofMinutes(1))).as(sender.stderrText()).isZero();
        }
        long sent = System.nanoTime();
        String received;
        try (ChildProcess receiver = ChildProcess.start(data, LargeStreamChild.class, "256m", Map.of(), "receive",
                url)) {
            receiver.awaitLine("received ", Duration.ofMinutes(20));
            received = receiver.lines("received ").get(0);
            assertThat(receiver.waitForExit(Duration.ofMinutes(1))).as(receiver.stderrText()).isZero();
        }
        long done = System.nanoTime();
        assertThat(received).isEqualTo("received " + BYTES + " "
                + HexFormat.of().formatHex(PatternStream.digestOf(BYTES, 9)));
        System.out.printf("%d bytes: sent in %d ms, received in %d ms%n", BYTES,
                (sent - started) / 1_000_000, (done - sent) / 1_000_000);
    }
}
