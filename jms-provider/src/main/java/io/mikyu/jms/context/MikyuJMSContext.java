package io.mikyu.jms.context;

import java.io.Serializable;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

/**
 * mikyu's {@link JMSContext}: one classic {@link Connection} (shared, reference-counted, with the contexts made by
 * {@link #createContext(int)}) and one classic {@link Session}, written against the standard classic interfaces
 * only, with the checked exceptions translated by {@link RuntimeExceptions}.
 *
 * <p>The session is created on first need, not with the context: creating a session is a use of the connection, after
 * which {@link #setClientID} must fail, and a context must still accept a client ID right after it is created.
 *
 * <p>Rules the classic objects cannot enforce on the context's behalf, enforced here: after {@link #close()} every
 * method but {@code close} throws {@link IllegalStateRuntimeException}; a {@code CompletionListener} of this context
 * may not call {@link #close}, {@link #commit} or {@link #rollback} on it, and a {@code MessageListener} may not
 * call {@link #stop} on any context of its connection nor {@link #close} on its own context (the specification
 * allows failing or succeeding there; failing cannot deadlock).
 */
public class MikyuJMSContext implements JMSContext {

    final SharedConnection shared;
    private final int sessionMode;
    /** Whether the session is an XASession (see {@link MikyuXAJMSContext}). */
    private final boolean xa;
    private final Object lock = new Object();
    private Session session;
    /** One anonymous producer serves every JMSProducer of this context (see {@link #classicProducer()}). */
    private MessageProducer producer;
    private volatile boolean closed;
    private volatile boolean autoStart = true;
    /**
     * CLIENT_ACKNOWLEDGE only: the last message this context's consumers delivered. Message.acknowledge() on any
     * message of a session acknowledges every message the session consumed, which is what {@link #acknowledge()}
     * means; the classic Session has no acknowledge of its own.
     */
    private volatile Message lastDelivered;

    MikyuJMSContext(SharedConnection shared, int sessionMode, boolean xa) {
        this.shared = shared;
        this.sessionMode = sessionMode;
        this.xa = xa;
    }

    /** An {@link jakarta.jms.XAJMSContext} owning {@code connection}, a freshly created XA connection. */
    public static jakarta.jms.XAJMSContext createXA(jakarta.jms.XAConnection connection) {
        return new MikyuXAJMSContext(new SharedConnection(connection));
    }

    /**
     * @throws JMSRuntimeException if {@code sessionMode} is not AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE,
     *                             DUPS_OK_ACKNOWLEDGE or SESSION_TRANSACTED
     */
    public static void checkSessionMode(int sessionMode) {
        switch (sessionMode) {
            case AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE, DUPS_OK_ACKNOWLEDGE, SESSION_TRANSACTED -> {
            }
            default -> throw new JMSRuntimeException("invalid session mode " + sessionMode
                    + ": expected AUTO_ACKNOWLEDGE (1), CLIENT_ACKNOWLEDGE (2), DUPS_OK_ACKNOWLEDGE (3) or"
                    + " SESSION_TRANSACTED (0)");
        }
    }

    /**
     * A context owning {@code connection}, a freshly created connection that is not started: closing the context
     * (and every context later made from it by {@link #createContext(int)}) closes the connection.
     */
    public static JMSContext create(Connection connection, int sessionMode) {
        checkSessionMode(sessionMode);
        return new MikyuJMSContext(new SharedConnection(connection), sessionMode, false);
    }

    // ================================================================ connection

    @Override
    public JMSContext createContext(int sessionMode) {
        checkOpen();
        checkSessionMode(sessionMode);
        shared.retain();
        return new MikyuJMSContext(shared, sessionMode, false);
    }

    @Override
    public String getClientID() {
        return onConnection(Connection::getClientID);
    }

    /** The classic connection decides whether it is too late (IllegalStateException) or a duplicate ID. */
    @Override
    public void setClientID(String clientID) {
        checkOpen();
        try {
            shared.connection.setClientID(clientID);
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public ConnectionMetaData getMetaData() {
        return onConnection(Connection::getMetaData);
    }

    @Override
    public ExceptionListener getExceptionListener() {
        return onConnection(Connection::getExceptionListener);
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        checkOpen();
        try {
            shared.connection.setExceptionListener(listener);
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public void start() {
        checkOpen();
        try {
            shared.connection.start();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public void stop() {
        checkOpen();
        if (ContextCallbacks.inMessageListenerOn(shared)) {
            throw new IllegalStateRuntimeException("a MessageListener may not stop its own connection");
        }
        try {
            shared.connection.stop();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public void setAutoStart(boolean autoStart) {
        checkOpen();
        this.autoStart = autoStart;
    }

    @Override
    public boolean getAutoStart() {
        checkOpen();
        return autoStart;
    }

    /**
     * Closes the session (its producers and consumers with it) and, if no other context shares it, the connection.
     * A second call does nothing.
     */
    @Override
    public void close() {
        if (ContextCallbacks.inCompletionListenerOf(this)) {
            throw new IllegalStateRuntimeException("a CompletionListener may not close its own JMSContext");
        }
        if (ContextCallbacks.inMessageListenerOf(this)) {
            throw new IllegalStateRuntimeException("a MessageListener may not close its own JMSContext");
        }
        Session toClose;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = session;
            session = null;
            producer = null;
        }
        lastDelivered = null;
        JMSException failure = null;
        try {
            if (toClose != null) {
                toClose.close();
            }
        } catch (JMSException e) {
            failure = e;
        }
        try {
            shared.release();
        } catch (JMSException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw RuntimeExceptions.translate(failure);
        }
    }

    // ================================================================ session

    @Override
    public int getSessionMode() {
        checkOpen();
        return sessionMode;
    }

    @Override
    public boolean getTransacted() {
        checkOpen();
        return sessionMode == SESSION_TRANSACTED;
    }

    /** The classic session refuses it when not transacted (IllegalStateException). */
    @Override
    public void commit() {
        checkOpen();
        if (ContextCallbacks.inCompletionListenerOf(this)) {
            throw new IllegalStateRuntimeException("a CompletionListener may not commit its own JMSContext");
        }
        try {
            session().commit();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    /** The classic session refuses it when not transacted (IllegalStateException). */
    @Override
    public void rollback() {
        checkOpen();
        if (ContextCallbacks.inCompletionListenerOf(this)) {
            throw new IllegalStateRuntimeException("a CompletionListener may not roll back its own JMSContext");
        }
        try {
            session().rollback();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    /** The classic session refuses it when transacted (IllegalStateException). */
    @Override
    public void recover() {
        checkOpen();
        try {
            session().recover();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
        lastDelivered = null;
    }

    /**
     * Acknowledges every message the session consumed; does nothing unless the session mode is CLIENT_ACKNOWLEDGE,
     * as the JMSContext javadoc says.
     */
    @Override
    public void acknowledge() {
        checkOpen();
        if (sessionMode != CLIENT_ACKNOWLEDGE) {
            return;
        }
        Message last = lastDelivered;
        if (last == null) {
            return;
        }
        try {
            last.acknowledge();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
        // A later acknowledge() with nothing consumed in between has nothing to do; compareAndSet-free because a
        // context is used by one thread at a time (a listener thread only records, never acknowledges here).
        if (lastDelivered == last) {
            lastDelivered = null;
        }
    }

    @Override
    public void unsubscribe(String name) {
        checkOpen();
        try {
            session().unsubscribe(name);
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    // ================================================================ messages and destinations

    @Override
    public BytesMessage createBytesMessage() {
        checkOpen();
        try {
            return session().createBytesMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public MapMessage createMapMessage() {
        checkOpen();
        try {
            return session().createMapMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public Message createMessage() {
        checkOpen();
        try {
            return session().createMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public ObjectMessage createObjectMessage() {
        checkOpen();
        try {
            return session().createObjectMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        checkOpen();
        try {
            return session().createObjectMessage(object);
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public StreamMessage createStreamMessage() {
        checkOpen();
        try {
            return session().createStreamMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public TextMessage createTextMessage() {
        checkOpen();
        try {
            return session().createTextMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public TextMessage createTextMessage(String text) {
        checkOpen();
        try {
            return session().createTextMessage(text);
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public Queue createQueue(String queueName) {
        return onSession(s -> s.createQueue(queueName));
    }

    @Override
    public Topic createTopic(String topicName) {
        return onSession(s -> s.createTopic(topicName));
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        return onSession(Session::createTemporaryQueue);
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        return onSession(Session::createTemporaryTopic);
    }

    // ================================================================ producers, consumers, browsers

    @Override
    public JMSProducer createProducer() {
        checkOpen();
        // Touch the session now: creating a producer is a use of the context, after which setClientID must fail.
        try {
            session();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
        return new MikyuJMSProducer(this);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        return createConsumer(destination, null, false);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        return createConsumer(destination, messageSelector, false);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        return consumer(destination, s -> s.createConsumer(destination, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        return consumer(topic, s -> s.createDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        return consumer(topic, s -> s.createDurableConsumer(topic, name, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        return consumer(topic, s -> s.createSharedDurableConsumer(topic, name));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        return consumer(topic, s -> s.createSharedDurableConsumer(topic, name, messageSelector));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        return consumer(topic, s -> s.createSharedConsumer(topic, sharedSubscriptionName));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        return consumer(topic, s -> s.createSharedConsumer(topic, sharedSubscriptionName, messageSelector));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        return browser(queue, s -> s.createBrowser(queue, messageSelector));
    }

    /** A call on the classic session or connection; its checked JMSException becomes the runtime one. */
    @FunctionalInterface
    private interface ClassicCall<O, T> {
        T on(O classic) throws JMSException;
    }

    private <T> T onSession(ClassicCall<Session, T> call) {
        checkOpen();
        try {
            return call.on(session());
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    private <T> T onConnection(ClassicCall<Connection, T> call) {
        checkOpen();
        try {
            return call.on(shared.connection);
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    /** A consumer the classic session makes, wrapped as a JMSConsumer (see {@link #started}). */
    private JMSConsumer consumer(Destination destination, ClassicCall<Session, MessageConsumer> create) {
        checkOpen();
        requireDestination(destination);
        try {
            return started(create.on(session()));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    private QueueBrowser browser(Queue queue, ClassicCall<Session, QueueBrowser> create) {
        checkOpen();
        requireDestination(queue);
        return onSession(create);
    }

    /** Wraps a new consumer and, with autoStart, starts the connection; the consumer is closed if that fails. */
    private JMSConsumer started(MessageConsumer consumer) throws JMSException {
        if (autoStart) {
            try {
                shared.connection.start();
            } catch (JMSException | RuntimeException e) {
                try {
                    consumer.close();
                } catch (JMSException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }
        return new MikyuJMSConsumer(this, consumer);
    }

    /** A null destination is refused here, whatever the classic session would do with it. */
    private static void requireDestination(Destination destination) {
        if (destination == null) {
            throw new InvalidDestinationRuntimeException("the destination is null");
        }
    }

    // ================================================================ for MikyuJMSProducer and MikyuJMSConsumer

    /** @throws IllegalStateRuntimeException if this context is closed */
    void checkOpen() {
        if (closed) {
            throw new IllegalStateRuntimeException("the JMSContext is closed");
        }
    }

    /** The session, created on first use. */
    Session session() throws JMSException {
        synchronized (lock) {
            if (closed) {
                throw new jakarta.jms.IllegalStateException("the JMSContext is closed");
            }
            if (session == null) {
                session = xa ? ((jakarta.jms.XAConnection) shared.connection).createXASession()
                        : shared.connection.createSession(sessionMode);
            }
            return session;
        }
    }

    /**
     * The classic producer every JMSProducer of this context sends with: anonymous (no destination), created on
     * first send. One for all, because a JMSProducer has no close method and applications create one per send;
     * a classic producer each would stay registered with the session until the context closes. Sharing is safe
     * as a context is used by one thread at a time, and it keeps the order of sends across JMSProducers.
     */
    MessageProducer classicProducer() throws JMSException {
        synchronized (lock) {
            if (producer == null) {
                producer = session().createProducer(null);
            }
            return producer;
        }
    }

    int sessionMode() {
        return sessionMode;
    }

    /** Records a message a consumer of this context delivered (for {@link #acknowledge()}). */
    void delivered(Message message) {
        if (message != null && sessionMode == CLIENT_ACKNOWLEDGE) {
            lastDelivered = message;
        }
    }
}
