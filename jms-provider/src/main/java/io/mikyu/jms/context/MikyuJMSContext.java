package io.mikyu.jms.context;

import java.io.Serializable;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
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
import jakarta.jms.MessageListener;
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

    /** The context whose MessageListener is running on this thread (a session's delivery thread), if any. */
    private static final ThreadLocal<MikyuJMSContext> LISTENER_OF = new ThreadLocal<>();
    /** The context whose CompletionListener is running on this thread, if any. */
    private static final ThreadLocal<MikyuJMSContext> COMPLETION_OF = new ThreadLocal<>();

    private final SharedConnection shared;
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

    private MikyuJMSContext(SharedConnection shared, int sessionMode) {
        this(shared, sessionMode, false);
    }

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
        return new MikyuJMSContext(new SharedConnection(connection), sessionMode);
    }

    // ================================================================ connection

    @Override
    public JMSContext createContext(int sessionMode) {
        checkOpen();
        checkSessionMode(sessionMode);
        shared.retain();
        return new MikyuJMSContext(shared, sessionMode);
    }

    @Override
    public String getClientID() {
        checkOpen();
        try {
            return shared.connection.getClientID();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
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
        checkOpen();
        try {
            return shared.connection.getMetaData();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public ExceptionListener getExceptionListener() {
        checkOpen();
        try {
            return shared.connection.getExceptionListener();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
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
        MikyuJMSContext running = LISTENER_OF.get();
        if (running != null && running.shared == shared) {
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
        if (COMPLETION_OF.get() == this) {
            throw new IllegalStateRuntimeException("a CompletionListener may not close its own JMSContext");
        }
        if (LISTENER_OF.get() == this) {
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
        if (COMPLETION_OF.get() == this) {
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
        if (COMPLETION_OF.get() == this) {
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
        checkOpen();
        try {
            return session().createQueue(queueName);
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public Topic createTopic(String topicName) {
        checkOpen();
        try {
            return session().createTopic(topicName);
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        checkOpen();
        try {
            return session().createTemporaryQueue();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        checkOpen();
        try {
            return session().createTemporaryTopic();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
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
        checkOpen();
        requireDestination(destination);
        try {
            return started(session().createConsumer(destination, messageSelector, noLocal));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        checkOpen();
        requireDestination(topic);
        try {
            return started(session().createDurableConsumer(topic, name));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        checkOpen();
        requireDestination(topic);
        try {
            return started(session().createDurableConsumer(topic, name, messageSelector, noLocal));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        checkOpen();
        requireDestination(topic);
        try {
            return started(session().createSharedDurableConsumer(topic, name));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        checkOpen();
        requireDestination(topic);
        try {
            return started(session().createSharedDurableConsumer(topic, name, messageSelector));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        checkOpen();
        requireDestination(topic);
        try {
            return started(session().createSharedConsumer(topic, sharedSubscriptionName));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector) {
        checkOpen();
        requireDestination(topic);
        try {
            return started(session().createSharedConsumer(topic, sharedSubscriptionName, messageSelector));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        checkOpen();
        requireDestination(queue);
        try {
            return session().createBrowser(queue, messageSelector);
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
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

    /** The listener the classic consumer calls: records the delivery and marks the thread while it runs. */
    MessageListener deliveringTo(MessageListener listener) {
        return message -> {
            delivered(message);
            MikyuJMSContext previous = LISTENER_OF.get();
            LISTENER_OF.set(this);
            try {
                listener.onMessage(message);
            } finally {
                restore(LISTENER_OF, previous);
            }
        };
    }

    /**
     * The listener the classic producer calls: marks the thread while it runs, and hands the simplified API's
     * runtime exceptions to {@code onException}.
     */
    CompletionListener completingTo(CompletionListener listener) {
        return new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                MikyuJMSContext previous = COMPLETION_OF.get();
                COMPLETION_OF.set(MikyuJMSContext.this);
                try {
                    listener.onCompletion(message);
                } finally {
                    restore(COMPLETION_OF, previous);
                }
            }

            @Override
            public void onException(Message message, Exception exception) {
                Exception translated = exception instanceof JMSException e ? RuntimeExceptions.translate(e) : exception;
                MikyuJMSContext previous = COMPLETION_OF.get();
                COMPLETION_OF.set(MikyuJMSContext.this);
                try {
                    listener.onException(message, translated);
                } finally {
                    restore(COMPLETION_OF, previous);
                }
            }
        };
    }

    private static void restore(ThreadLocal<MikyuJMSContext> marker, MikyuJMSContext previous) {
        if (previous == null) {
            marker.remove();
        } else {
            marker.set(previous);
        }
    }

    /** The connection and the number of open contexts using it; the last to close closes the connection. */
    static final class SharedConnection {

        final Connection connection;
        private int contexts = 1;

        SharedConnection(Connection connection) {
            this.connection = connection;
        }

        synchronized void retain() {
            if (contexts == 0) {
                throw new IllegalStateRuntimeException("the connection is closed");
            }
            contexts++;
        }

        void release() throws JMSException {
            boolean last;
            synchronized (this) {
                last = --contexts == 0;
            }
            if (last) {
                connection.close();
            }
        }
    }
}
