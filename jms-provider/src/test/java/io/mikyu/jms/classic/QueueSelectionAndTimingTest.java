package io.mikyu.jms.classic;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.embedded.EmbeddedEngines;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
        // The queue's engine runs on a clock the test moves (the connection shares the engine the test opened);
        // the messages' delivery and expiry times are wall-clock instants the send sets on them.
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        EmbeddedEngines.Handle engine = EmbeddedEngines.acquire(data, EngineConfig.builder().timeSource(clock)
                .defaultDurability(Durability.ASYNC).build(), opened -> { });
        try (Connection c = connect("")) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("timed");
            MessageProducer p = s.createProducer(q);
            p.setTimeToLive(50);
            TextMessage shortLived = s.createTextMessage("short-lived");
            p.send(shortLived);
            p.setTimeToLive(0);
            p.setDeliveryDelay(600);
            TextMessage sentLater = s.createTextMessage("later");
            p.send(sentLater);
            // sent second, so due after the first one's expiry
            advanceTo(clock, shortLived.getJMSExpiration());
            MessageConsumer consumer = s.createConsumer(q);
            assertThat(consumer.receive(200)).as("nothing due, the other expired").isNull();
            advanceTo(clock, sentLater.getJMSDeliveryTime() - 1);
            assertThat(consumer.receive(200)).as("a millisecond before its delivery time").isNull();
            advanceTo(clock, sentLater.getJMSDeliveryTime());
            Message later = consumer.receive(30_000);
            assertThat(text(later)).isEqualTo("later");
            assertThat(later.getJMSDeliveryTime()).isGreaterThan(later.getJMSTimestamp());
            assertThat(consumer.receive(200)).isNull();
        } finally {
            engine.release();
        }
    }

    /** Lets the clock's time pass up to the wall-clock instant {@code wallMillis}. */
    private static void advanceTo(SteppableTimeSource clock, long wallMillis) {
        clock.advance(Duration.ofMillis(Math.max(0, wallMillis - clock.wallMillis())));
    }

    @Test
    void aSlowListenerKeepsItsMessageBecauseTheLeaseIsRenewed() throws Exception {
        // A 1 s lease: renewals must keep up on a loaded machine too, where a 300 ms lease could lapse in one stall.
        CountDownLatch finish = new CountDownLatch(1);
        try (Connection c = connect("&leaseMillis=1000")) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = s.createQueue("slow");
            AtomicInteger deliveries = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            s.createConsumer(q).setMessageListener(m -> {
                deliveries.incrementAndGet();
                try {
                    finish.await(); // busy until the test lets it finish
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.countDown();
            });
            Session other = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer competitor = other.createConsumer(q);
            other.createProducer(q).send(other.createTextMessage("work"));
            await("the listener has the message").atMost(Duration.ofSeconds(30)).until(() -> deliveries.get() == 1);
            // while the listener works, four leases long: a lease that ran out would hand the message over
            assertThat(competitor.receive(4_000)).as("never handed to anyone else").isNull();
            finish.countDown();
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(competitor.receive(500)).as("acknowledged once the listener returned").isNull();
            assertThat(deliveries.get()).isEqualTo(1);
        } finally {
            finish.countDown(); // a failed assertion must not leave close() waiting for a listener that never returns
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
