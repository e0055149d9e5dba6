package io.mikyu.jms.classic;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** JMS Queues are task queues: each message to one consumer, acknowledged per the session's mode. */
@Timeout(30)
class QueueDeliveryTest implements TestStore {

    @TempDir
    Path data;

    @Override
    public Path data() {
        return data;
    }
    private Connection connection;

    @BeforeEach
    void open() throws Exception {
        connection = new MikyuConnectionFactory(url("")).createConnection();
        connection.start();
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
    }

    private static List<String> texts(List<Message> ms) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m : ms) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }

    @Test
    void aSentMessageIsReceivedOnceWithItsHeadersAndProperties() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("orders");
        MessageProducer p = s.createProducer(q);
        TextMessage m = s.createTextMessage("hello");
        m.setStringProperty("colour", "red");
        p.send(m, DeliveryMode.PERSISTENT, 7, 0);
        assertThat(m.getJMSMessageID()).startsWith("ID:");

        MessageConsumer c = s.createConsumer(q);
        TextMessage got = (TextMessage) c.receive(waitMillis());
        assertThat(got.getText()).isEqualTo("hello");
        assertThat(got.getStringProperty("colour")).isEqualTo("red");
        assertThat(got.getJMSPriority()).isEqualTo(7);
        assertThat(got.getJMSMessageID()).isEqualTo(m.getJMSMessageID());
        assertThat(got.getJMSDestination()).isEqualTo(q);
        assertThat(got.getJMSRedelivered()).isFalse();
        assertThat(got.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
        assertThat(c.receiveNoWait()).as("acknowledged: gone").isNull();
    }

    @Test
    void clientAcknowledgeRecoverRedeliversFlaggedInOrder() throws Exception {
        Session s = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        Queue q = s.createQueue("work");
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < 5; i++) {
            p.send(s.createTextMessage("m" + i));
        }
        MessageConsumer c = s.createConsumer(q);
        List<Message> first = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            first.add(c.receive(waitMillis()));
        }
        assertThat(texts(first)).containsExactly("m0", "m1", "m2");
        s.recover();
        List<Message> again = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            again.add(c.receive(waitMillis()));
        }
        assertThat(texts(again)).containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(again.get(0).getJMSRedelivered()).isTrue();
        assertThat(again.get(0).getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
        assertThat(again.get(3).getJMSRedelivered()).as("never delivered before").isFalse();
        again.get(4).acknowledge();
        assertThat(c.receive(200)).isNull();
    }

    @Test
    void aTransactedSessionCommitsSendsAndAcksTogetherAndRollsBack() throws Exception {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        Queue in = tx.createQueue("in");
        Queue out = tx.createQueue("out");
        Session plain = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        plain.createProducer(in).send(plain.createTextMessage("job"));

        MessageConsumer c = tx.createConsumer(in);
        Message job = c.receive(waitMillis());
        tx.createProducer(out).send(tx.createTextMessage("result"));
        MessageConsumer outReader = plain.createConsumer(out);
        assertThat(outReader.receive(200)).as("not committed yet").isNull();
        tx.rollback();
        Message again = c.receive(waitMillis());
        assertThat(((TextMessage) again).getText()).isEqualTo("job");
        assertThat(again.getJMSRedelivered()).isTrue();
        tx.createProducer(out).send(tx.createTextMessage("result"));
        tx.commit();
        assertThat(((TextMessage) outReader.receive(waitMillis())).getText()).isEqualTo("result");
        assertThat(c.receive(200)).as("the job was acknowledged by the commit").isNull();
        assertThat(job).isNotNull();
    }

    @Test
    void aListenerReceivesAndAThrowingListenerGetsTheMessageAgain() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("events");
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(3);
        s.createConsumer(q).setMessageListener(m -> {
            try {
                String text = ((TextMessage) m).getText();
                seen.add(text + "#" + m.getIntProperty("JMSXDeliveryCount"));
                done.countDown();
                if (text.equals("boom") && !m.getJMSRedelivered()) {
                    throw new RuntimeException("first time fails");
                }
            } catch (jakarta.jms.JMSException e) {
                throw new RuntimeException(e);
            }
        });
        Session ps = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = ps.createProducer(q);
        p.send(ps.createTextMessage("ok"));
        p.send(ps.createTextMessage("boom"));
        assertThat(done.await(2 * waitMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(seen).containsExactly("ok#1", "boom#1", "boom#2");
    }

    @Test
    void aBrowserShowsWhatIsQueuedWithoutTakingIt() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("browse");
        MessageProducer p = s.createProducer(q);
        for (int i = 0; i < 3; i++) {
            TextMessage m = s.createTextMessage("b" + i);
            m.setIntProperty("n", i);
            p.send(m);
        }
        QueueBrowser all = s.createBrowser(q);
        List<Message> seen = Collections.list(all.getEnumeration());
        assertThat(texts(seen)).containsExactly("b0", "b1", "b2");
        QueueBrowser some = s.createBrowser(q, "n >= 1");
        assertThat(texts(Collections.list(some.getEnumeration()))).containsExactly("b1", "b2");
        assertThat(((TextMessage) s.createConsumer(q).receive(waitMillis())).getText()).isEqualTo("b0");
    }

    @Test
    void eachDeliveryModeKeepsItsOrderAndNonPersistentSendsAreVisibleAtOnce() throws Exception {
        // JMS orders messages of one session per delivery mode; between modes the order is not defined. A
        // NON_PERSISTENT queue message is kept in memory only, and sorts after stored ones.
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("mixed-modes");
        MessageProducer p = s.createProducer(q);
        List<String> persistent = new ArrayList<>();
        List<String> nonPersistent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            boolean durable = i % 10 == 9;
            p.send(s.createTextMessage("m" + i), durable ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT,
                    4, 0);
            (durable ? persistent : nonPersistent).add("m" + i);
        }
        MessageConsumer c = connection.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(q);
        List<String> gotPersistent = new ArrayList<>();
        List<String> gotNonPersistent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Message m = c.receiveNoWait();
            assertThat(m).as("message %d is there at once", i).isNotNull();
            (m.getJMSDeliveryMode() == DeliveryMode.PERSISTENT ? gotPersistent : gotNonPersistent)
                    .add(((TextMessage) m).getText());
        }
        assertThat(gotPersistent).isEqualTo(persistent);
        assertThat(gotNonPersistent).isEqualTo(nonPersistent);
    }

    @Test
    void nonPersistentQueueMessagesAreNotStoredAndPersistentOnesAre() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = s.createQueue("kept");
        MessageProducer p = s.createProducer(q);
        p.send(s.createTextMessage("memory"), DeliveryMode.NON_PERSISTENT, 4, 0);
        p.send(s.createTextMessage("disk"), DeliveryMode.PERSISTENT, 4, 0);
        connection.close(); // the last connection: the engine closes
        connection = new MikyuConnectionFactory(url("")).createConnection();
        connection.start();
        Session again = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer c = again.createConsumer(again.createQueue("kept"));
        assertThat(((TextMessage) c.receive(waitMillis())).getText()).isEqualTo("disk");
        assertThat(c.receive(200)).isNull();
    }

    @Test
    void aQueueCanHaveItsOwnRedeliveryLimit() throws Exception {
        try (Connection c = new MikyuConnectionFactory(
                otherStoreUrl("maxAttempts=5&maxAttempts.fragile=1")).createConnection()) {
            c.start();
            Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            Queue fragile = s.createQueue("fragile");
            Queue sturdy = s.createQueue("sturdy");
            s.createProducer(fragile).send(s.createTextMessage("f"));
            s.createProducer(sturdy).send(s.createTextMessage("s"));
            MessageConsumer f = s.createConsumer(fragile);
            MessageConsumer st = s.createConsumer(sturdy);
            assertThat(f.receive(waitMillis())).isNotNull();
            assertThat(st.receive(waitMillis())).isNotNull();
            s.recover();
            assertThat(f.receive(300)).as("one attempt only: dead-lettered").isNull();
            assertThat(st.receive(waitMillis()).getJMSRedelivered()).isTrue();
            assertThat(s.createConsumer(s.createQueue("fragile/dlq")).receive(waitMillis())).isNotNull();
        }
    }

    @Test
    void aTransactionThatOnlyConsumesOrOnlySendsCommitsWhole() throws Exception {
        Session tx = connection.createSession(true, Session.SESSION_TRANSACTED);
        Queue q = tx.createQueue("batches");
        MessageProducer p = tx.createProducer(q);
        for (int i = 0; i < 10; i++) {
            p.send(tx.createTextMessage("b" + i));
        }
        MessageConsumer c = tx.createConsumer(q);
        assertThat(c.receive(200)).as("nothing before the commit").isNull();
        tx.commit();
        for (int i = 0; i < 5; i++) {
            assertThat(((TextMessage) c.receive(waitMillis())).getText()).isEqualTo("b" + i);
        }
        tx.commit(); // acks the five
        for (int i = 5; i < 10; i++) {
            assertThat(((TextMessage) c.receive(waitMillis())).getText()).isEqualTo("b" + i);
        }
        tx.rollback();
        Message again = c.receive(waitMillis());
        assertThat(((TextMessage) again).getText()).isEqualTo("b5");
        assertThat(again.getJMSRedelivered()).isTrue();
    }
}
