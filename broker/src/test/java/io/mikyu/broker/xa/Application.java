package io.mikyu.broker.xa;

import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;

import javax.transaction.xa.XAResource;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * What an application holds to work in JTA transactions with both resources: a mikyu {@link XASession} and an H2
 * XA connection. {@link #enlist(TransactionManager)} enlists both in the current transaction, as a container does
 * when the connections are first used in it; then the application sends, receives and inserts.
 */
final class Application implements AutoCloseable {

    private final XAConnection jms;
    private final XASession session;
    private final javax.sql.XAConnection jdbc;
    private final java.sql.Connection sql;
    private final Map<String, MessageConsumer> consumers = new HashMap<>();
    private final Map<String, MessageProducer> producers = new HashMap<>();

    Application(String mikyuUrl, H2Db db) throws JMSException, SQLException {
        jms = Jms.xaFactory(mikyuUrl).createXAConnection();
        try {
            jms.start();
            session = jms.createXASession();
            jdbc = db.dataSource().getXAConnection();
            sql = jdbc.getConnection();     // one handle for the application's life: H2 rolls back at its close
        } catch (JMSException | SQLException | RuntimeException e) {
            jms.close();
            throw e;
        }
    }

    XAResource mikyuResource() throws JMSException {
        return session.getXAResource();
    }

    XAResource h2Resource() throws SQLException {
        return jdbc.getXAResource();
    }

    /** Enlists mikyu, then H2, in the transaction of this thread. */
    Application enlist(TransactionManager tm) throws Exception {
        Transaction tx = tm.getTransaction();
        if (tx == null) {
            throw new IllegalStateException("no transaction");
        }
        if (!tx.enlistResource(mikyuResource())) {
            throw new IllegalStateException("mikyu's XAResource was not enlisted");
        }
        if (!tx.enlistResource(h2Resource())) {
            throw new IllegalStateException("H2's XAResource was not enlisted");
        }
        return this;
    }

    /** Sends a PERSISTENT text message through the XA session (in the current branch). */
    void send(String queue, String text) throws JMSException {
        Session s = session.getSession();
        MessageProducer p = producers.computeIfAbsent(queue, q -> {
            try {
                return s.createProducer(s.createQueue(q));
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        TextMessage m = s.createTextMessage(text);
        p.send(m, DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY, Message.DEFAULT_TIME_TO_LIVE);
    }

    /** Receives through the XA session (in the current branch); the text, or null after {@code millis}. */
    String receive(String queue, long millis) throws JMSException {
        Message m = consumer(queue).receive(millis);
        return m == null ? null : ((TextMessage) m).getText();
    }

    /** The XA session's consumer of {@code queue}, opened now if it is not yet (then it may prefetch). */
    MessageConsumer consumer(String queue) {
        Session s;
        try {
            s = session.getSession();
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
        return consumers.computeIfAbsent(queue, q -> {
            try {
                return s.createConsumer(s.createQueue(q));
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Inserts the row {@code id} through the H2 XA connection (in the current branch). */
    void insert(String id) throws SQLException {
        H2Db.insert(sql, id);
    }

    @Override
    public void close() throws Exception {
        try {
            jdbc.close();
        } finally {
            jms.close();
        }
    }
}
