package io.mikyu.jms.client;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Queue selectors, priorities, delivery delay, time to live, lease renewal and temporary queues. */
@Timeout(60)
class QueueSelectionAndTimingTest {

    @TempDir
    Path data;

    private Connection connect(String options) throws JMSException {
        Connection c = new MikyuConnectionFactory("vm://" + data + "?durability=async" + options).createConnection();
        c.start();
        return c;
    }

    private static String text(Message m) throws JMSException {
        return m == null ? null : ((TextMessage) m).getText();
    }

    @Test
    void aSelectorTakesOnlyMatchingMessagesAndLeavesTheRest() throws Exception {
        try (Connection c = connect("")) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("mixed");
            MessageProducer p = s.createProducer(q);
            for (String colour : List.of("red", "blue", "red", "green")) {
                TextMessage m = s.createTextMessage(colour);
                m.setStringProperty("colour", colour);
                p.send(m);
            }
            MessageConsumer reds = s.createConsumer(q, "colour = 'red'");
            assertThat(text(reds.receive(2_000))).isEqualTo("red");
            assertThat(text(reds.receive(2_000))).isEqualTo("red");
            assertThat(reds.receive(200)).isNull();
            MessageConsumer rest = s.createConsumer(q);
            assertThat(text(rest.receive(2_000))).isEqualTo("blue");
            assertThat(text(rest.receive(2_000))).isEqualTo("green");
        }
    }

    @Test
    void higherPriorityMessagesAreDeliveredFirst() throws Exception {
        try (Connection c = connect("")) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("urgent");
            MessageProducer p = s.createProducer(q);
            p.send(s.createTextMessage("low"), jakarta.jms.DeliveryMode.PERSISTENT, 1, 0);
            p.send(s.createTextMessage("high"), jakarta.jms.DeliveryMode.PERSISTENT, 9, 0);
            MessageConsumer consumer = s.createConsumer(q);
            assertThat(text(consumer.receive(2_000))).isEqualTo("high");
            assertThat(text(consumer.receive(2_000))).isEqualTo("low");
        }
    }

    @Test
    void aDelayedMessageWaitsAndAnExpiredOneIsNeverDelivered() throws Exception {
        try (Connection c = connect("")) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("timed");
            MessageProducer p = s.createProducer(q);
            p.setDeliveryDelay(600);
            p.send(s.createTextMessage("later"));
            p.setDeliveryDelay(0);
            p.setTimeToLive(50);
            p.send(s.createTextMessage("short-lived"));
            Thread.sleep(150);
            MessageConsumer consumer = s.createConsumer(q);
            assertThat(consumer.receive(200)).as("nothing due, the other expired").isNull();
            Message later = consumer.receive(5_000);
            assertThat(text(later)).isEqualTo("later");
            assertThat(later.getJMSDeliveryTime()).isGreaterThan(later.getJMSTimestamp());
            assertThat(consumer.receive(200)).isNull();
        }
    }

    @Test
    void aSlowListenerKeepsItsMessageBecauseTheLeaseIsRenewed() throws Exception {
        try (Connection c = connect("&leaseMillis=300")) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("slow");
            AtomicInteger deliveries = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            s.createConsumer(q).setMessageListener(m -> {
                deliveries.incrementAndGet();
                try {
                    Thread.sleep(1_500); // five leases long
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.countDown();
            });
            Session other = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer competitor = other.createConsumer(q);
            other.createProducer(q).send(other.createTextMessage("work"));
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(competitor.receive(500)).as("never handed to anyone else").isNull();
            assertThat(deliveries.get()).isEqualTo(1);
        }
    }

    @Test
    void temporaryQueuesAreDeletedWhenTheirConnectionCloses() throws Exception {
        String name;
        try (Connection c = connect("")) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TemporaryQueue tq = s.createTemporaryQueue();
            name = tq.getQueueName();
            s.createProducer(tq).send(s.createTextMessage("x"));
        }
        try (Mikyu engine = Mikyu.open(data)) {
            List<String> queues = new ArrayList<>(engine.list(QueueKind.TASK));
            assertThat(queues).doesNotContain(name);
        }
    }
}
