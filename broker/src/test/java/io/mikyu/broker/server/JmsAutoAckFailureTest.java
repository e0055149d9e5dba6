package io.mikyu.broker.server;

import io.mikyu.engine.TaskCounts;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * AUTO_ACKNOWLEDGE writes its acknowledgements in batches, and a full batch is written by the receiving thread.
 * When that write fails (its answer lost on the network), {@code receive()} must still hand out the message it
 * was returning: the broker may well have acknowledged it, and a receive that throws then has lost it for good.
 * A real broker on a loopback port, reached through a relay that stops carrying its answers.
 */
@Timeout(60)
class JmsAutoAckFailureTest {

    private static final int MESSAGES = 200;

    @TempDir
    Path dir;

    @Test
    void aBatchOfAutomaticAcknowledgementsWhoseAnswerIsLostDoesNotCostTheMessageBeingReceived() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"));
             LoopbackProxy proxy = new LoopbackProxy(broker.endpoint().port());
             Connection direct = new MikyuConnectionFactory(broker.uri()).createConnection();
             // The prefetched messages must stay in the consumer's stream throughout: a stream nobody takes from
             // for streamIdle gives them back, and a receive blocked for requestTimeout on a lost answer takes
             // nothing meanwhile (the default 1 s idle then raced the 1 s timeout, and a loaded machine's slow await).
             Connection relayed = new MikyuConnectionFactory(proxy.uri()
                     + "?requestTimeout=1s&reconnect=0&streamIdle=10m").createConnection()) {
            Session producing = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = producing.createQueue("work");
            MessageProducer p = producing.createProducer(q);
            for (int i = 0; i < MESSAGES; i++) {
                p.send(producing.createTextMessage("m" + i));
            }
            relayed.start();
            MessageConsumer consumer = relayed.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
            assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("m0");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(broker.store().taskQueue("work")
                    .counts()).as("the first acknowledged, the rest pushed to the client")
                    .isEqualTo(new TaskCounts(0, 0, MESSAGES - 1)));

            proxy.dropDownstream();     // acknowledgements reach the broker, their answers do not come back
            List<String> received = new ArrayList<>();
            List<Exception> thrown = new ArrayList<>();
            while (received.size() < MESSAGES - 1 && thrown.size() < 5) {
                try {
                    Message m = consumer.receive(5_000);
                    if (m == null) {
                        break;
                    }
                    received.add(((TextMessage) m).getText());
                } catch (Exception e) {
                    thrown.add(e);
                }
            }

            assertThat(thrown).as("receive() while the acknowledgements' answers are lost").isEmpty();
            List<String> expected = new ArrayList<>();
            for (int i = 1; i < MESSAGES; i++) {
                expected.add("m" + i);
            }
            assertThat(received).as("every message handed out, none acknowledged behind the application's back")
                    .containsExactlyElementsOf(expected);
            proxy.cut();    // the connection ends now rather than waiting for answers that cannot come
        }
    }
}
