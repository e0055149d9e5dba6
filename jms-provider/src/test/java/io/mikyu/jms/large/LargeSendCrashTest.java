package io.mikyu.jms.large;

import io.mikyu.engine.support.ChildProcess;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JVM is killed with SIGKILL while it streams a large message into a vm:// queue: after reopening, the message
 * sent before is there whole, the cut one is never delivered, and the space its chunks took is reclaimed.
 */
@Timeout(180)
class LargeSendCrashTest {

    private static final long MIB = 1024 * 1024;

    @TempDir
    Path data;

    @Test
    void aLargeSendCutByKillNineLeavesNothingDeliveredAndNoFile() throws Exception {
        Path store = data.resolve("store");
        String url = "vm://" + store + "?durability=sync&housekeepingInterval=50ms";
        try (ChildProcess child = ChildProcess.start(data, LargeSendChild.class, Map.of(), url,
                Long.toString(5 * MIB), Long.toString(20 * MIB))) {
            child.awaitLine("streaming", Duration.ofSeconds(120));
            assertThat(child.lines()).contains("sent");
            assertThat(pendingBytes(store)).as("chunks of the cut message on disk").isGreaterThan(MIB);
            child.sigkill();
        }
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            assertThat(pendingBytes(store)).as("the cut body is gone once the store is open").isZero();
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createQueue("uploads"));
            BytesMessage got = (BytesMessage) consumer.receive(30_000);
            assertThat(got.getStringProperty("which")).isEqualTo("complete");
            PatternStream.Digest saved = new PatternStream.Digest();
            got.setObjectProperty("JMS_MIKYU_SaveStream", saved);
            assertThat(saved.digest()).isEqualTo(PatternStream.digestOf(5 * MIB, 1));
            assertThat(consumer.receive(1_000)).as("the cut message is never delivered").isNull();
            got.acknowledge();
            await().atMost(Duration.ofSeconds(60)).until(() -> bodyCount(store) == 0);
        }
    }

    private static long pendingBytes(Path store) throws Exception {
        Path pending = store.resolve("bodies").resolve("pending");
        if (!Files.isDirectory(pending)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(pending)) {
            long sum = 0;
            for (Path f : (Iterable<Path>) files::iterator) {
                sum += Files.size(f);
            }
            return sum;
        }
    }

    private static long bodyCount(Path store) throws Exception {
        try (Stream<Path> files = Files.list(store.resolve("bodies"))) {
            return files.filter(f -> f.toString().endsWith(".body")).count();
        }
    }
}
