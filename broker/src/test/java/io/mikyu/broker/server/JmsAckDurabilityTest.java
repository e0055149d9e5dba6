package io.mikyu.broker.server;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Over a broker too, an acknowledgement is as durable as the JMS URL says: with {@code durability=sync} it returns
 * after the broker's fsync covering it, for a queue (a task queue) and a durable subscription (a shared group);
 * with {@code async} the broker writes it to the OS and its flusher fsyncs later. Observed through the count of
 * fsyncs the broker's writer issued; a real broker on a loopback port, real files.
 */
@Timeout(60)
class JmsAckDurabilityTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "async"})
    void anAcknowledgementOverABrokerIsFsyncedBeforeItReturnsOnlyWithSyncDurability(String durability)
            throws Exception {
        boolean sync = durability.equals("sync");
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"));
             Connection c = new MikyuConnectionFactory(broker.uri() + "?durability=" + durability + "&clientID=acks")
                     .createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue q = s.createQueue("jobs");
            Topic t = s.createTopic("events");
            var subscriber = s.createDurableSubscriber(t, "audit");
            MessageProducer p = s.createProducer(null);
            p.send(q, s.createTextMessage("job"));
            p.send(t, s.createTextMessage("event"));

            Message job = s.createConsumer(q).receive(5_000);
            assertThat(job).isNotNull();
            long before = broker.store().stats().fsyncs();
            job.acknowledge();
            assertThat(broker.store().stats().fsyncs() > before).as("queue ack fsynced").isEqualTo(sync);

            Message event = subscriber.receive(5_000);
            assertThat(event).isNotNull();
            before = broker.store().stats().fsyncs();
            event.acknowledge();
            assertThat(broker.store().stats().fsyncs() > before).as("subscription ack fsynced").isEqualTo(sync);
        }
    }
}
