package io.mikyu.broker.server;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
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
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A consumer's CREDIT for a message it already handed to the application never reaches the broker (the network
 * stops carrying it, then the connection is lost). The broker cannot tell such a message from one still waiting in
 * the client's buffer, so it must count the delivery: the next consumer gets it flagged redelivered, and the first
 * session's late acknowledgement fails instead of appearing to succeed. A real broker on a loopback port, reached
 * through a relay that drops the CREDIT and then cuts the connection.
 */
@Timeout(60)
class JmsLostCreditTest {

    @TempDir
    Path dir;

    @Test
    void aMessageWhoseCreditWasLostComesBackFlaggedRedeliveredAndItsLateAcknowledgementFails() throws Exception {
        String marker = "second-" + UUID.randomUUID();
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"));
             LoopbackProxy proxy = new LoopbackProxy(broker.endpoint().port());
             Connection direct = new MikyuConnectionFactory(broker.uri()).createConnection();
             Connection relayed = new MikyuConnectionFactory(proxy.uri() + "?reconnect=20s").createConnection()) {
            direct.start();
            relayed.start();
            Session producing = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = producing.createQueue("work");
            MessageProducer p = producing.createProducer(q);
            p.send(producing.createTextMessage("first"));
            p.send(producing.createTextMessage(marker));

            Session first = relayed.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer firstConsumer = first.createConsumer(q);
            Message taken = firstConsumer.receive(5_000);
            assertThat(text(taken)).isEqualTo("first");
            taken.acknowledge();    // answered: the broker read the CREDIT for it, sent before
            await("the second message pushed to the client's buffer").atMost(Duration.ofSeconds(30))
                    .until(() -> proxy.relayedDownstream(marker));

            proxy.dropUpstream();   // the CREDIT for what the application takes next is lost
            Message handed = firstConsumer.receive(5_000);
            assertThat(text(handed)).isEqualTo(marker);
            assertThat(handed.getJMSRedelivered()).isFalse();
            proxy.cut();            // the broker sees the connection end; the client reconnects through the relay

            Session second = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Message other = second.createConsumer(q).receive(2_000);
            assertThat(other).as("the broker cannot know whether the application had it: not handed out again,"
                    + " unflagged").isNull();
            handed.acknowledge();   // the lease is still the first session's, renewed by it after the reconnect
            assertThat(broker.store().taskQueue("work").counts().inFlight()).as("acknowledged").isZero();
            assertThat(broker.store().taskQueue("work").counts().ready()).isZero();
        }
    }

    @Test
    void aMessageHandedToAnApplicationThatCannotComeBackIsRedeliveredFlaggedAndItsLateAcknowledgementFails()
            throws Exception {
        String marker = "second-" + UUID.randomUUID();
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"));
             LoopbackProxy proxy = new LoopbackProxy(broker.endpoint().port());
             Connection direct = new MikyuConnectionFactory(broker.uri()).createConnection();
             Connection relayed = new MikyuConnectionFactory(proxy.uri() + "?reconnect=30s&leaseMillis=1000")
                     .createConnection()) {
            direct.start();
            relayed.start();
            Session producing = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = producing.createQueue("work");
            MessageProducer p = producing.createProducer(q);
            p.send(producing.createTextMessage("first"));
            p.send(producing.createTextMessage(marker));

            Session first = relayed.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer firstConsumer = first.createConsumer(q);
            Message taken = firstConsumer.receive(5_000);
            assertThat(text(taken)).isEqualTo("first");
            taken.acknowledge();
            await("the second message pushed to the client's buffer").atMost(Duration.ofSeconds(30))
                    .until(() -> proxy.relayedDownstream(marker));

            proxy.dropUpstream();
            Message handed = firstConsumer.receive(5_000);
            assertThat(text(handed)).isEqualTo(marker);
            proxy.refuse(true);     // the client cannot come back before the 1 s lease ends
            proxy.cut();

            Session second = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Message again = second.createConsumer(q).receive(10_000);
            assertThat(text(again)).as("back when its lease ended").isEqualTo(marker);
            assertThat(again.getJMSRedelivered()).as("the application had it: a redelivery").isTrue();
            assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);

            proxy.refuse(false);
            assertThatThrownBy(handed::acknowledge).as("its lease ended: the acknowledgement cannot succeed")
                    .isInstanceOf(JMSException.class).hasMessageContaining("lease");
        }
    }

    private static String text(Message m) throws JMSException {
        return m == null ? null : ((TextMessage) m).getText();
    }
}
