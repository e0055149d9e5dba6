package io.mikyu.broker.xa;

import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.MikyuXAConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XAConnectionFactory;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The JMS side of the tests' checks: what a plain (non-XA) client sees on a queue, and what is in doubt. */
final class Jms {

    /** How long a queue must stay quiet for a drain to call it empty. */
    static final Duration QUIET = Duration.ofMillis(400);
    /** How long a drain waits for a first message that must come (a loaded machine may take more than QUIET). */
    static final Duration EXPECTED = Duration.ofSeconds(10);

    private Jms() {
    }

    /** mikyu's XA connection factory for {@code url}. */
    static XAConnectionFactory xaFactory(String url) {
        return new MikyuXAConnectionFactory(url);
    }

    /** A message as a plain consumer received it. */
    record Received(String text, boolean redelivered, int deliveryCount, long atMillis) {

        @Override
        public String toString() {
            return text + (redelivered ? " (redelivered, JMSXDeliveryCount " + deliveryCount + ")"
                    : " (JMSXDeliveryCount " + deliveryCount + ")");
        }
    }

    static Received received(Message m) throws JMSException {
        return new Received(((TextMessage) m).getText(), m.getJMSRedelivered(),
                m.getIntProperty("JMSXDeliveryCount"), System.currentTimeMillis());
    }

    /** Sends PERSISTENT text messages (each returns after its fsync) outside any transaction. */
    static void send(String url, String queue, String... texts) throws JMSException {
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            send(c, queue, texts);
        }
    }

    static void send(Connection c, String queue, String... texts) throws JMSException {
        try (Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE)) {
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            for (String text : texts) {
                p.send(s.createTextMessage(text));
            }
        }
    }

    /** Receives (and acknowledges) everything on {@code queue} until it has been quiet for {@link #QUIET}. */
    static List<Received> drain(String url, String queue) throws JMSException {
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            return drain(c, queue);
        }
    }

    static List<Received> drain(Connection c, String queue) throws JMSException {
        return drain(c, queue, QUIET);
    }

    /**
     * Receives (and acknowledges) everything on {@code queue}: waits up to {@code first} for a first message, then
     * until the queue has been quiet for {@link #QUIET}.
     */
    static List<Received> drain(Connection c, String queue, Duration first) throws JMSException {
        c.start();
        List<Received> out = new ArrayList<>();
        try (Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
             MessageConsumer consumer = s.createConsumer(s.createQueue(queue))) {
            Message m = consumer.receive(Math.max(1, first.toMillis()));
            while (m != null) {
                out.add(received(m));
                m = consumer.receive(QUIET.toMillis());
            }
        }
        return out;
    }

    static List<Received> drain(String url, String queue, Duration first) throws JMSException {
        try (Connection c = new MikyuConnectionFactory(url).createConnection()) {
            return drain(c, queue, first);
        }
    }

    static List<String> texts(List<Received> received) {
        return received.stream().map(Received::text).toList();
    }

    /** What mikyu lists as prepared and undecided: {@code recover(TMSTARTRSCAN | TMENDRSCAN)}, as text. */
    static List<String> inDoubt(String url) throws JMSException, XAException {
        XAConnection xc = xaFactory(url).createXAConnection();
        try {
            return Xids.texts(xc.createXASession().getXAResource()
                    .recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN));
        } finally {
            xc.close();
        }
    }

    static ConnectionFactory plain(String url) {
        return new MikyuConnectionFactory(url);
    }
}
