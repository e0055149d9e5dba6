package io.mikyu.jms.classic;

import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.MikyuXAConnectionFactory;
import io.mikyu.jms.spi.AvailabilityAware;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The resource adapter's view of a consumer: wait for a message without delivering it, give back what it fetched. */
@Timeout(30)
class AvailabilityAwareTest implements TestStore {

    @TempDir
    Path data;
    private String url;
    private Connection connection;

    @Override
    public Path data() {
        return data;
    }

    @BeforeEach
    void open() throws Exception {
        url = url("");
        connection = new MikyuConnectionFactory(url).createConnection();
        connection.start();
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
    }

    private void send(String queue, String text) throws Exception {
        try (Session s = connection.createSession()) {
            s.createProducer(s.createQueue(queue)).send(s.createTextMessage(text));
        }
    }

    @Test
    void awaitsAMessageWithoutDeliveringIt() throws Exception {
        Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer c = s.createConsumer(s.createQueue("jobs"));
        AvailabilityAware aware = (AvailabilityAware) c;

        long t0 = System.nanoTime();
        assertThat(aware.awaitMessage(Duration.ofMillis(200))).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(150));

        send("jobs", "one");
        assertThat(aware.awaitMessage(Duration.ofMillis(waitMillis()))).isTrue();
        assertThat(aware.awaitMessage(Duration.ZERO)).as("still there: nothing was delivered").isTrue();
        TextMessage m = (TextMessage) c.receiveNoWait();
        assertThat(m.getText()).isEqualTo("one");
        assertThat(m.getJMSRedelivered()).isFalse();
        assertThat(aware.awaitMessage(Duration.ofMillis(50))).isFalse();
    }

    @Test
    void aMessageAwaitedBeforeABranchIsConsumedInsideIt() throws Exception {
        send("orders", "o-1");
        try (XAConnection xa = new MikyuXAConnectionFactory(url).createXAConnection()) {
            xa.start();
            XASession session = xa.createXASession();
            MessageConsumer c = session.createConsumer(session.createQueue("orders"));
            XAResource resource = session.getXAResource();
            assertThat(((AvailabilityAware) c).awaitMessage(Duration.ofMillis(waitMillis()))).isTrue();

            Xid rolledBack = xid(1);
            resource.start(rolledBack, XAResource.TMNOFLAGS);
            Message first = c.receiveNoWait();
            assertThat(((TextMessage) first).getText()).isEqualTo("o-1");
            resource.end(rolledBack, XAResource.TMSUCCESS);
            resource.rollback(rolledBack);

            assertThat(((AvailabilityAware) c).awaitMessage(Duration.ofMillis(waitMillis()))).isTrue();
            Xid committed = xid(2);
            resource.start(committed, XAResource.TMNOFLAGS);
            Message again = c.receiveNoWait();
            assertThat(again.getJMSRedelivered()).as("the rolled back branch gave it back").isTrue();
            resource.end(committed, XAResource.TMSUCCESS);
            resource.commit(committed, true);
        }
        Session s = connection.createSession();
        assertThat(s.createConsumer(s.createQueue("orders")).receive(200)).as("committed: consumed").isNull();
    }

    @Test
    void returnPrefetchedLetsAnotherConsumerTakeTheMessageAsNeverDelivered() throws Exception {
        Session a = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Queue q = a.createQueue("work");
        MessageConsumer first = a.createConsumer(q);
        send("work", "w-1");
        assertThat(((AvailabilityAware) first).awaitMessage(Duration.ofMillis(waitMillis()))).isTrue();

        Session b = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer second = b.createConsumer(q);
        assertThat(second.receive(200)).as("leased to the first consumer").isNull();

        ((AvailabilityAware) first).returnPrefetched();
        Message m = second.receive(waitMillis());
        assertThat(((TextMessage) m).getText()).isEqualTo("w-1");
        assertThat(m.getJMSRedelivered()).isFalse();
        assertThat(m.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
        assertThat(first.receiveNoWait()).isNull();
    }

    @Test
    void aClosedConsumerRefuses() throws Exception {
        Session s = connection.createSession();
        MessageConsumer c = s.createConsumer(s.createQueue("jobs"));
        c.close();
        assertThatThrownBy(() -> ((AvailabilityAware) c).awaitMessage(Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);
    }

    private static Xid xid(int n) {
        return new Xid() {
            @Override
            public int getFormatId() {
                return 4711;
            }

            @Override
            public byte[] getGlobalTransactionId() {
                return new byte[] {1, 2, (byte) n};
            }

            @Override
            public byte[] getBranchQualifier() {
                return new byte[] {(byte) n};
            }
        };
    }
}
