package io.mikyu.broker.server;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A message waits in a consumer's prefetch buffer while its client cannot reach the broker for longer than the
 * message's lease (a broker restart, a network gone). The store hands it to another consumer, counted; when the first
 * client is back, its buffered copy must not be handed to its application as well: that copy carries the older
 * delivery count (lower than the one already handed out, or none at all), and both would be out at once. A real
 * broker on a loopback port, the first consumer reaching it through a relay that cuts it off and then lets it back.
 */
@Timeout(180)
class JmsBufferedLeaseEndedTest {

    private static final long LEASE_MILLIS = 3_000;

    /** Reconnect for longer than a loaded machine needs for the rest; a short lease, so it ends soon once cut off. */
    private static final String CUT_OFF = "?reconnect=120s&leaseMillis=" + LEASE_MILLIS + "&prefetch=4";

    @TempDir
    Path dir;

    @Test
    void aQueueMessageBufferedPastItsLeaseIsNotHandedOutOnceAnotherConsumerHasIt() throws Exception {
        runScenario(false);
    }

    @Test
    void aSharedSubscriptionMessageBufferedPastItsLeaseIsNotHandedOutOnceAnotherConsumerHasIt() throws Exception {
        runScenario(true);
    }

    private void runScenario(boolean sharedSubscription) throws Exception {
        String third = "third-" + UUID.randomUUID();
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"));
             LoopbackProxy proxy = new LoopbackProxy(broker.endpoint().port());
             Connection direct = new MikyuConnectionFactory(broker.uri()).createConnection();
             Connection relayed = new MikyuConnectionFactory(proxy.uri() + CUT_OFF).createConnection()) {
            direct.start();
            relayed.start();
            Session producing = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Destination destination = sharedSubscription ? producing.createTopic("events")
                    : producing.createQueue("work");
            Session first = relayed.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer firstConsumer = consumer(first, destination, sharedSubscription);
            MessageProducer p = producing.createProducer(destination);
            p.send(producing.createTextMessage("one"));
            p.send(producing.createTextMessage("two"));
            p.send(producing.createTextMessage(third));

            assertThat(text(firstConsumer.receive(30_000))).isEqualTo("one");
            await(() -> proxy.relayedDownstream(third), "the third message pushed to the first client");
            Message second = firstConsumer.receive(30_000);   // takes the second and the third: one is buffered
            assertThat(text(second)).isEqualTo("two");
            second.acknowledge();

            proxy.refuse(true);     // the first client cannot come back before its lease on the third ends
            proxy.cut();

            Session other = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Message again = consumer(other, destination, sharedSubscription).receive(60_000);
            assertThat(text(again)).as("back when its lease ended").isEqualTo(third);
            assertThat(again.getJMSRedelivered()).isTrue();
            int count = again.getIntProperty("JMSXDeliveryCount");
            assertThat(count).as("2, or more if a renewal came late on a loaded machine").isGreaterThanOrEqualTo(2);

            proxy.refuse(false);
            Message stale = firstConsumer.receive(5_000);
            assertThat(stale).as("the first client's buffered copy, under the lease that ended, while the other"
                    + " consumer has the message with delivery count %d: %s", count, describe(stale)).isNull();
        }
    }

    private static MessageConsumer consumer(Session s, Destination d, boolean sharedSubscription)
            throws JMSException {
        return sharedSubscription ? s.createSharedDurableConsumer((Topic) d, "shared") : s.createConsumer(d);
    }

    private static String describe(Message m) throws JMSException {
        return m == null ? "none" : text(m) + " (JMSRedelivered " + m.getJMSRedelivered() + ", JMSXDeliveryCount "
                + m.getIntProperty("JMSXDeliveryCount") + ")";
    }

    private static String text(Message m) throws JMSException {
        return m == null ? null : ((TextMessage) m).getText();
    }

    private static void await(BooleanSupplier condition, String what) {
        Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(condition::getAsBoolean);
    }
}
