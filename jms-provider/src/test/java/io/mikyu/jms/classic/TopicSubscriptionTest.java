package io.mikyu.jms.classic;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** JMS Topics are log queues; subscriptions are cursors (non-durable) or shared groups (durable, shared). */
@Timeout(60)
class TopicSubscriptionTest implements TestStore {

    @TempDir
    Path data;

    @Override
    public Path data() {
        return data;
    }

    private MikyuConnectionFactory factory(String extra) {
        return new MikyuConnectionFactory(url(extra));
    }

    private static String text(Message m) throws JMSException {
        return m == null ? null : ((TextMessage) m).getText();
    }

    /** The first message within {@link #waitMillis()}, then the others until the consumer is quiet for a while. */
    private List<String> firstAndRest(MessageConsumer c, long quietMillis) throws JMSException {
        List<String> out = new ArrayList<>();
        Message first = c.receive(waitMillis());
        if (first != null) {
            out.add(text(first));
            out.addAll(drain(c, quietMillis));
        }
        return out;
    }

    private static List<String> drain(MessageConsumer c, long quietMillis) throws JMSException {
        List<String> out = new ArrayList<>();
        Message m;
        while ((m = c.receive(quietMillis)) != null) {
            out.add(text(m));
        }
        return out;
    }

    @Test
    void everySubscriberGetsEveryMessagePublishedAfterItSubscribed() throws Exception {
        try (Connection c = factory("").createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("news");
            MessageProducer p = s.createProducer(t);
            p.send(s.createTextMessage("before"));
            MessageConsumer a = s.createConsumer(t);
            MessageConsumer b = s.createConsumer(t);
            p.send(s.createTextMessage("one"));
            p.send(s.createTextMessage("two"));
            assertThat(drain(a, 300)).containsExactly("one", "two");
            assertThat(drain(b, 300)).containsExactly("one", "two");
        }
    }

    @Test
    void selectorsAndNoLocalFilterTopicMessages() throws Exception {
        try (Connection mine = factory("").createConnection(); Connection other = factory("").createConnection()) {
            mine.start();
            Session s = mine.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session os = other.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("prices");
            MessageConsumer noLocal = s.createConsumer(t, null, true);
            MessageConsumer cheap = s.createConsumer(t, "price < 10", false);
            TextMessage local = s.createTextMessage("local");
            local.setIntProperty("price", 5);
            s.createProducer(t).send(local);
            TextMessage remote = os.createTextMessage("remote");
            remote.setIntProperty("price", 50);
            os.createProducer(t).send(remote);
            assertThat(firstAndRest(noLocal, 300)).containsExactly("remote");
            assertThat(firstAndRest(cheap, 300)).containsExactly("local");
        }
    }

    @Test
    void aDurableSubscriptionKeepsMessagesWhileOfflineAndAcrossAnEngineRestart() throws Exception {
        try (Connection c = factory("&clientID=app").createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("orders");
            s.createDurableSubscriber(t, "audit").close();
            MessageProducer p = s.createProducer(t);
            for (int i = 0; i < 3; i++) {
                p.send(s.createTextMessage("o" + i));
            }
        }
        // the last connection closed: the engine closed too; the next one reopens it from disk
        try (Connection c = factory("&clientID=app").createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer sub = s.createDurableSubscriber(s.createTopic("orders"), "audit");
            assertThatThrownBy(() -> c.createSession(false, Session.AUTO_ACKNOWLEDGE)
                    .createDurableSubscriber(s.createTopic("orders"), "audit"))
                    .as("one active consumer per unshared durable subscription")
                    .isInstanceOf(jakarta.jms.IllegalStateException.class);
            List<Message> got = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                got.add(sub.receive(waitMillis()));
            }
            assertThat(got).extracting(TopicSubscriptionTest::textOf).containsExactly("o0", "o1", "o2");
            got.get(2).acknowledge();
            sub.close();
            assertThatThrownBy(() -> s.unsubscribe("nope")).isInstanceOf(jakarta.jms.InvalidDestinationException.class);
            s.unsubscribe("audit");
        }
    }

    private static String textOf(Message m) {
        try {
            return text(m);
        } catch (JMSException e) {
            throw new RuntimeException(e);
        }
    }

    @Test
    void aSharedSubscriptionSplitsMessagesBetweenItsConsumersWithoutDuplicates() throws Exception {
        try (Connection c1 = factory("").createConnection(); Connection c2 = factory("").createConnection()) {
            c1.start();
            c2.start();
            Session s1 = c1.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session s2 = c2.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s1.createTopic("jobs");
            MessageConsumer a = s1.createSharedDurableConsumer(t, "workers");
            MessageConsumer b = s2.createSharedDurableConsumer(t, "workers");
            MessageProducer p = s1.createProducer(t);
            for (int i = 0; i < 40; i++) {
                p.send(s1.createTextMessage("j" + i));
            }
            List<String> fromA = new ArrayList<>();
            List<String> fromB = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2 * waitMillis());
            for (int i = 0; i < 20 || (fromA.size() + fromB.size() < 40 && System.nanoTime() < deadline); i++) {
                Message m = a.receive(200);
                if (m != null) {
                    fromA.add(text(m));
                }
                m = b.receive(200);
                if (m != null) {
                    fromB.add(text(m));
                }
            }
            fromA.addAll(drain(a, 200));
            fromB.addAll(drain(b, 200));
            Set<String> all = new HashSet<>(fromA);
            all.addAll(fromB);
            assertThat(fromA.size() + fromB.size()).isEqualTo(40);
            assertThat(all).hasSize(40);
            assertThat(fromA).isNotEmpty();
            assertThat(fromB).isNotEmpty();
        }
    }

    @Test
    void delayedAndExpiringTopicMessages() throws Exception {
        try (Connection c = factory("").createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("timed");
            MessageConsumer sub = s.createConsumer(t);
            MessageProducer p = s.createProducer(t);
            p.setTimeToLive(50);
            TextMessage shortLived = s.createTextMessage("short-lived");
            p.send(shortLived);
            // a subscription's delays and expiry are timed by the system clock: let the expiry instant pass
            await("the short-lived message expired").atMost(Duration.ofSeconds(30))
                    .until(() -> System.currentTimeMillis() > shortLived.getJMSExpiration());
            p.setTimeToLive(0);
            p.setDeliveryDelay(700);
            p.send(s.createTextMessage("later"));
            p.setDeliveryDelay(0);
            p.send(s.createTextMessage("now"));
            assertThat(text(sub.receive(waitMillis()))).isEqualTo("now");
            assertThat(sub.receive(300)).as("not yet due").isNull();
            assertThat(text(sub.receive(waitMillis()))).isEqualTo("later");
            assertThat(sub.receive(200)).as("the expired one never comes").isNull();
        }
    }

    @Test
    void temporaryDestinationsAreOnlyForTheirConnectionAndGoWithIt() throws Exception {
        try (Connection owner = factory("").createConnection(); Connection other = factory("").createConnection()) {
            Session s = owner.createSession(false, Session.AUTO_ACKNOWLEDGE);
            jakarta.jms.TemporaryQueue tq = s.createTemporaryQueue();
            Session os = other.createSession(false, Session.AUTO_ACKNOWLEDGE);
            os.createProducer(tq).send(os.createTextMessage("reply"));
            assertThatThrownBy(() -> os.createConsumer(tq)).isInstanceOf(JMSException.class);
            owner.start();
            MessageConsumer c = s.createConsumer(tq);
            assertThat(text(c.receive(waitMillis()))).isEqualTo("reply");
            assertThatThrownBy(tq::delete).as("in use").isInstanceOf(JMSException.class);
            c.close();
            tq.delete();
            assertThatThrownBy(() -> os.createProducer(tq).send(os.createTextMessage("late")))
                    .isInstanceOf(jakarta.jms.InvalidDestinationException.class);
        }
    }
}
