package io.mikyu.jca.outbound;

import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueSession;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@link jakarta.jms.Connection} an application gets from a pooled connection factory: a handle of a
 * {@link MikyuManagedConnection}, with the rules of Jakarta Messaging 3.1 §12.2 for the Jakarta EE web and EJB
 * containers: one session at a time, and {@code setClientID}, {@code setExceptionListener}, {@code stop} and the
 * connection-consumer methods refused with {@link IllegalStateException} (they belong to the container). Closing it
 * closes its session and temporary destinations and gives the physical connection back to the pool, open.
 */
public final class ConnectionHandle implements QueueConnection, TopicConnection {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandle.class);

    private volatile MikyuManagedConnection mc;
    /** A JMSContext's connection: CLIENT_ACKNOWLEDGE and SESSION_TRANSACTED mean AUTO_ACKNOWLEDGE (§12.3). */
    private volatile boolean forContext;
    private SessionHandle session;
    private final List<Destination> temporaries = new ArrayList<>();
    private volatile boolean closed;

    ConnectionHandle(MikyuManagedConnection mc) {
        this.mc = mc;
    }

    MikyuManagedConnection managedConnection() {
        return mc;
    }

    void associate(MikyuManagedConnection other) {
        this.mc = other;
    }

    void forContext() {
        this.forContext = true;
    }

    // ------------------------------------------------------------------------------------------------ sessions

    @Override
    public Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return createSession(transacted ? Session.SESSION_TRANSACTED : checkAcknowledgeMode(acknowledgeMode));
    }

    @Override
    public Session createSession() throws JMSException {
        return createSession(Session.AUTO_ACKNOWLEDGE);
    }

    /**
     * Inside a JTA transaction (or the container's local one) the mode is ignored: the session's work is the
     * transaction's. Outside one, SESSION_TRANSACTED is a local transaction of this session (on a JMSContext's
     * connection: AUTO_ACKNOWLEDGE, as §12.3 requires of contexts); CLIENT_ACKNOWLEDGE is AUTO_ACKNOWLEDGE, as
     * §12.3 recommends.
     */
    @Override
    public synchronized Session createSession(int sessionMode) throws JMSException {
        checkOpen();
        if (sessionMode != Session.SESSION_TRANSACTED) {
            checkAcknowledgeMode(sessionMode);
        }
        if (session != null && !session.isClosed()) {
            throw new IllegalStateException("a connection in a Jakarta EE container has one session at a time "
                    + "(Jakarta Messaging 3.1 §12.2): close the other session, or use another connection");
        }
        boolean local = sessionMode == Session.SESSION_TRANSACTED && !forContext;
        int acknowledge = sessionMode == Session.DUPS_OK_ACKNOWLEDGE ? Session.DUPS_OK_ACKNOWLEDGE
                : Session.AUTO_ACKNOWLEDGE;
        session = new SessionHandle(this, local, acknowledge);
        return session;
    }

    private static int checkAcknowledgeMode(int mode) throws JMSException {
        if (mode != Session.AUTO_ACKNOWLEDGE && mode != Session.CLIENT_ACKNOWLEDGE
                && mode != Session.DUPS_OK_ACKNOWLEDGE) {
            throw new JMSException("invalid acknowledge mode " + mode
                    + ": use AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE or DUPS_OK_ACKNOWLEDGE (or a transacted session)");
        }
        return mode;
    }

    @Override
    public QueueSession createQueueSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return (QueueSession) createSession(transacted, acknowledgeMode);
    }

    @Override
    public TopicSession createTopicSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return (TopicSession) createSession(transacted, acknowledgeMode);
    }

    synchronized void sessionClosed(SessionHandle s) {
        if (session == s) {
            session = null;
        }
    }

    synchronized void temporaryCreated(Destination d) {
        temporaries.add(d);
    }

    // ------------------------------------------------------------------------------------------------ connection

    @Override
    public String getClientID() throws JMSException {
        checkOpen();
        return mc.physical().getClientID();
    }

    @Override
    public void setClientID(String clientID) throws JMSException {
        checkOpen();
        throw new IllegalStateException("setClientID is not allowed in a Jakarta EE container (Jakarta Messaging 3.1"
                + " §12.2): set the clientID property of the connection factory instead");
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        checkOpen();
        return mc.physical().getMetaData();
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        checkOpen();
        return null; // the physical connection's listener is the pool's
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        checkOpen();
        throw new IllegalStateException("setExceptionListener is not allowed in a Jakarta EE container (Jakarta "
                + "Messaging 3.1 §12.2): the container watches the connection");
    }

    @Override
    public void start() throws JMSException {
        checkOpen();
        mc.start();
    }

    @Override
    public void stop() throws JMSException {
        checkOpen();
        throw new IllegalStateException("stop is not allowed in a Jakarta EE container (Jakarta Messaging 3.1 §12.2)");
    }

    /** Closes the session and temporary destinations; the physical connection goes back to the pool, open. */
    @Override
    public void close() throws JMSException {
        MikyuManagedConnection owner;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            owner = mc;
        }
        release();
        owner.handleClosed(this);
    }

    /** The container cleans the managed connection up: this handle is dead, without a CONNECTION_CLOSED event. */
    void invalidate() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        release();
    }

    private void release() {
        SessionHandle s;
        List<Destination> temps;
        synchronized (this) {
            s = session;
            session = null;
            temps = new ArrayList<>(temporaries);
            temporaries.clear();
        }
        if (s != null) {
            s.closeQuietly();
        }
        for (Destination d : temps) {
            try {
                if (d instanceof TemporaryQueue q) {
                    q.delete();
                } else if (d instanceof TemporaryTopic t) {
                    t.delete();
                }
            } catch (JMSException | RuntimeException e) {
                LOG.debug("deleting temporary destination {} failed", d, e);
            }
        }
    }

    boolean isClosed() {
        return closed;
    }

    void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("the connection is closed");
        }
    }

    // ------------------------------------------------------------------------------------------------ §12.2

    @Override
    public ConnectionConsumer createConnectionConsumer(Destination destination, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw connectionConsumers("createConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Queue queue, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw connectionConsumers("createConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Topic topic, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw connectionConsumers("createConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createSharedConnectionConsumer(Topic topic, String subscriptionName,
                                                             String messageSelector, ServerSessionPool sessionPool,
                                                             int maxMessages) throws JMSException {
        throw connectionConsumers("createSharedConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                              String messageSelector, ServerSessionPool sessionPool,
                                                              int maxMessages) throws JMSException {
        throw connectionConsumers("createDurableConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                                    String messageSelector,
                                                                    ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw connectionConsumers("createSharedDurableConnectionConsumer");
    }

    private JMSException connectionConsumers(String method) throws JMSException {
        checkOpen();
        return new IllegalStateException(method + " is not allowed in a Jakarta EE container (Jakarta Messaging 3.1 "
                + "§12.2): receive messages asynchronously with a message-driven bean");
    }

    @Override
    public String toString() {
        return "ConnectionHandle[" + mc + (closed ? ", closed" : "") + "]";
    }
}
