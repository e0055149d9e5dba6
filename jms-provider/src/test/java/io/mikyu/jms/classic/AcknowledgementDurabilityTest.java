package io.mikyu.jms.classic;

import io.mikyu.engine.Mikyu;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With {@code durability=sync} an acknowledgement returns (an automatic one is written) only after the fsync that
 * covers it, so a power loss cannot bring an acknowledged message back; with {@code async} it is written to the OS
 * and fsynced by the engine's flusher later. Observed through the engine's count of the fsyncs its writer issued,
 * on real files, with the flusher's interval far beyond the test.
 */
@Timeout(30)
class AcknowledgementDurabilityTest {

    @TempDir
    Path data;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async"})
    void anAcknowledgementIsFsyncedBeforeItReturnsOnlyWithSyncDurability(String durability) throws Exception {
        boolean sync = durability.equals("sync");
        String url = "vm://" + data + "?durability=" + durability + "&flushInterval=10m";
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            c.start();
            Mikyu engine = ((MikyuConnection) c).engine;
            Session producing = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = producing.createQueue("jobs");
            MessageProducer p = producing.createProducer(q);
            for (int i = 0; i < 3; i++) {
                p.send(producing.createTextMessage("job-" + i));
            }

            Session client = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Message m = client.createConsumer(q).receive(5_000);
            long before = engine.stats().fsyncs();
            m.acknowledge();
            assertThat(engine.stats().fsyncs() > before).as("acknowledge() fsynced").isEqualTo(sync);
            client.close();

            Session auto = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = auto.createConsumer(q);
            before = engine.stats().fsyncs();
            assertThat(consumer.receive(5_000)).isNotNull();
            awaitSettled(engine, 1);
            // The ack is applied before its fsync completes; close() returns once every automatic ack is written.
            auto.close();
            assertThat(engine.stats().fsyncs() > before).as("the automatic ack fsynced").isEqualTo(sync);

            Session tx = c.createSession(true, Session.SESSION_TRANSACTED);
            assertThat(tx.createConsumer(q).receive(5_000)).isNotNull();
            before = engine.stats().fsyncs();
            tx.commit();
            assertThat(engine.stats().fsyncs() > before).as("the commit fsynced").isEqualTo(sync);
        }
    }

    /** Waits until only {@code left} messages of "jobs" are unacknowledged (ready or in flight). */
    private static void awaitSettled(Mikyu engine, long left) {
        await("the automatic ack written").atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            var counts = engine.taskQueue("jobs").counts();
            assertThat(counts.ready() + counts.inFlight()).as("unacknowledged: %s", counts).isEqualTo(left);
        });
    }
}
