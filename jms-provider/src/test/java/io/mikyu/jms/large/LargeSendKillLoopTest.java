package io.mikyu.jms.large;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JVM streaming large messages into a vm:// queue is killed with SIGKILL at random moments, cycle after cycle
 * ({@code mikyu.faults.cycles}): every send that returned is delivered whole, the message in flight is delivered
 * whole or not at all, nothing partial ever, and once everything is consumed no body file is left.
 */
@Tag("faults")
@Timeout(3600)
class LargeSendKillLoopTest {

    private static final int CYCLES = Integer.getInteger("mikyu.faults.cycles", 3);

    @TempDir
    Path data;

    @Test
    void killedMidStreamNothingPartialIsDeliveredAndNoBodyIsLeft() throws Exception {
        Path store = data.resolve("store");
        String url = "vm://" + store + "?durability=sync&housekeepingInterval=50ms";
        Random random = new Random(Long.getLong("mikyu.faults.seed", System.nanoTime()));
        long next = 0;
        long returned = 0;
        long deliveredInFlight = 0;
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            long first = next;
            try (ChildProcess child = ChildProcess.start(data, LargeSendLoopChild.class, Map.of(), url,
                    Long.toString(first))) {
                int sends = 1 + random.nextInt(3);
                child.awaitLines(l -> l.startsWith("sent "), sends, Duration.ofMinutes(5));
                long pause = System.nanoTime() + random.nextInt(400) * 1_000_000L;
                while (System.nanoTime() < pause) {
                    Thread.onSpinWait(); // a random moment inside the next send: no event to wait for
                }
                child.sigkill();
                List<String> sent = child.lines("sent ");
                long last = Long.parseLong(sent.get(sent.size() - 1).substring(5));
                returned += last - first + 1;
                next = last + 2; // the one in flight may or may not be there; numbers are never reused
            }
            try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
                assertThat(pendingFiles(store)).as("cycle %d: cut bodies are gone once open", cycle).isZero();
                c.start();
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createQueue("uploads"));
                Set<Long> seen = new HashSet<>();
                BytesMessage m;
                while ((m = (BytesMessage) consumer.receive(1_000)) != null) {
                    long seq = m.getLongProperty("seq");
                    PatternStream.Digest saved = new PatternStream.Digest();
                    m.setObjectProperty("JMS_MIKYU_SaveStream", saved);
                    assertThat(saved.count).as("cycle %d: message %d whole", cycle, seq)
                            .isEqualTo(LargeSendLoopChild.sizeOf(seq));
                    assertThat(Arrays.equals(saved.digest(), PatternStream.digestOf(LargeSendLoopChild.sizeOf(seq),
                            LargeSendLoopChild.seedOf(seq)))).as("cycle %d: message %d intact", cycle, seq).isTrue();
                    seen.add(seq);
                }
                for (long n = first; n <= next - 2; n++) {
                    assertThat(seen).as("cycle %d: message %d, whose send returned", cycle, n).contains(n);
                }
                long inFlight = next - 1;
                assertThat(seen).as("cycle %d: nothing but this cycle's messages", cycle)
                        .allMatch(n -> n >= first && n <= inFlight);
                if (seen.contains(next - 1)) {
                    deliveredInFlight++;
                }
                await().atMost(Duration.ofSeconds(60)).until(() -> bodyFiles(store) == 0);
            }
        }
        System.out.printf("%d cycles: %d sends returned and delivered whole, %d in-flight sends delivered whole, "
                + "no partial message, no body left%n", CYCLES, returned, deliveredInFlight);
    }

    private static long pendingFiles(Path store) throws Exception {
        return count(store.resolve("bodies").resolve("pending"));
    }

    private static long bodyFiles(Path store) throws Exception {
        return count(store.resolve("bodies"));
    }

    private static long count(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".body")).count();
        }
    }
}
