package io.mikyu.jca.outbound;

import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.QueueReceiver;
import jakarta.jms.QueueSender;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionRolledBackException;
import jakarta.resource.spi.ConnectionEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.transaction.xa.XAException;
import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A connection handle's session, over the managed connection's one physical XA session. Its work belongs to the
 * container's transaction while there is one (JTA, or the container's local transaction): {@code commit} and
 * {@code rollback} then throw {@link TransactionInProgressException}, and the session mode given at creation does
 * not matter (Jakarta Messaging 3.1 §12.3). Outside one it is auto-acknowledging (or DUPS_OK) with sends taking
 * effect at once, or, when created transacted, a local transaction of its own, begun by its first send or receive
 * and ended by {@code commit} / {@code rollback}. {@code setMessageListener} and {@code run} are refused (§12.2).
 */
final class SessionHandle implements QueueSession, TopicSession {

    private static final Logger LOG = LoggerFactory.getLogger(SessionHandle.class);

    private final ConnectionHandle connection;
    private final MikyuManagedConnection mc;
    private final Session physical;
    private final boolean localTransacted;
    private final int acknowledgeMode;
    private final List<ConsumerHandle> consumers = new CopyOnWriteArrayList<>();
    private final List<ProducerHandle> producers = new CopyOnWriteArrayList<>();
    private final List<QueueBrowser> browsers = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    SessionHandle(ConnectionHandle connection, boolean localTransacted, int acknowledgeMode) {
        this.connection = connection;
        this.mc = connection.managedConnection();
        this.physical = mc.session();
        this.localTransacted = localTransacted;
        this.acknowledgeMode = acknowledgeMode;
    }

    /**
     * Before a send or receive: outside the container's transaction, a locally transacted session begins its
     * local transaction (LOCAL_TRANSACTION_STARTED), so the work is part of it.
     */
    void beforeWork() throws JMSException {
        checkOpen();
        TransactionState t = mc.transactions();
        if (localTransacted && !t.inAnyTransaction()) {
            try {
                t.beginLocal(true);
            } catch (XAException e) {
                throw jms("cannot begin the session's local transaction", e);
            }
            mc.fire(ConnectionEvent.LOCAL_TRANSACTION_STARTED, connection, null);
        }
    }

    // ------------------------------------------------------------------------------------------------ transactions

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return localTransacted || mc.transactions().inContainerTransaction();
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        return getTransacted() ? SESSION_TRANSACTED : acknowledgeMode;
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        TransactionState t = mc.transactions();
        if (t.inContainerTransaction()) {
            throw new TransactionInProgressException("this session's work belongs to the container's transaction "
                    + "(Jakarta Messaging 3.1 §12.3): it commits with that transaction");
        }
        if (!localTransacted) {
            throw new IllegalStateException("commit() needs a transacted session");
        }
        if (!t.inApplicationLocal()) {
            return; // nothing was sent or received since the last commit
        }
        try {
            t.commitLocal();
        } catch (XAException e) {
            mc.fire(ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK, connection, null);
            if (e.errorCode >= XAException.XA_RBBASE && e.errorCode <= XAException.XA_RBEND) {
                TransactionRolledBackException r = new TransactionRolledBackException("the transaction was rolled "
                        + "back: " + e.getMessage());
                r.initCause(e);
                throw r;
            }
            throw jms("the outcome of the commit is not known", e);
        }
        mc.fire(ConnectionEvent.LOCAL_TRANSACTION_COMMITTED, connection, null);
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        TransactionState t = mc.transactions();
        if (t.inContainerTransaction()) {
            throw new TransactionInProgressException("this session's work belongs to the container's transaction "
                    + "(Jakarta Messaging 3.1 §12.3): roll that transaction back (setRollbackOnly)");
        }
        if (!localTransacted) {
            throw new IllegalStateException("rollback() needs a transacted session");
        }
        rollbackLocal();
    }

    private void rollbackLocal() throws JMSException {
        TransactionState t = mc.transactions();
        if (!t.inApplicationLocal()) {
            return;
        }
        try {
            t.rollbackLocal();
        } catch (XAException e) {
            throw jms("rolling back the local transaction failed", e);
        } finally {
            mc.fire(ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK, connection, null);
        }
    }

    /** Nothing is left unacknowledged outside a transaction (messages are acknowledged as received). */
    @Override
    public void recover() throws JMSException {
        if (getTransacted()) {
            throw new IllegalStateException("recover() is not for a transacted session");
        }
    }

    // ------------------------------------------------------------------------------------------------ messages

    @Override
    public BytesMessage createBytesMessage() throws JMSException {
        checkOpen();
        return physical.createBytesMessage();
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        checkOpen();
        return physical.createMapMessage();
    }

    @Override
    public Message createMessage() throws JMSException {
        checkOpen();
        return physical.createMessage();
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        checkOpen();
        return physical.createObjectMessage();
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        checkOpen();
        return physical.createObjectMessage(object);
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        checkOpen();
        return physical.createStreamMessage();
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        checkOpen();
        return physical.createTextMessage();
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        checkOpen();
        return physical.createTextMessage(text);
    }

    // ------------------------------------------------------------------------------------------------ destinations

    @Override
    public Queue createQueue(String queueName) throws JMSException {
        checkOpen();
        return physical.createQueue(queueName);
    }

    @Override
    public Topic createTopic(String topicName) throws JMSException {
        checkOpen();
        return physical.createTopic(topicName);
    }

    @Override
    public TemporaryQueue createTemporaryQueue() throws JMSException {
        checkOpen();
        TemporaryQueue q = physical.createTemporaryQueue();
        connection.temporaryCreated(q);
        return q;
    }

    @Override
    public TemporaryTopic createTemporaryTopic() throws JMSException {
        checkOpen();
        TemporaryTopic t = physical.createTemporaryTopic();
        connection.temporaryCreated(t);
        return t;
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        checkOpen();
        physical.unsubscribe(name);
    }

    // ------------------------------------------------------------------------------------------------ producers

    @Override
    public MessageProducer createProducer(Destination destination) throws JMSException {
        checkOpen();
        ProducerHandle p = new ProducerHandle(this, physical.createProducer(destination));
        producers.add(p);
        return p;
    }

    @Override
    public QueueSender createSender(Queue queue) throws JMSException {
        return (QueueSender) createProducer(queue);
    }

    @Override
    public TopicPublisher createPublisher(Topic topic) throws JMSException {
        return (TopicPublisher) createProducer(topic);
    }

    void producerClosed(ProducerHandle p) {
        producers.remove(p);
    }

    // ------------------------------------------------------------------------------------------------ consumers

    private ConsumerHandle consumer(MessageConsumer c) {
        ConsumerHandle h = new ConsumerHandle(this, c);
        consumers.add(h);
        return h;
    }

    void consumerClosed(ConsumerHandle c) {
        consumers.remove(c);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination) throws JMSException {
        checkOpen();
        return consumer(physical.createConsumer(destination));
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector) throws JMSException {
        checkOpen();
        return consumer(physical.createConsumer(destination, messageSelector));
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        checkOpen();
        return consumer(physical.createConsumer(destination, messageSelector, noLocal));
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        checkOpen();
        return consumer(physical.createSharedConsumer(topic, sharedSubscriptionName));
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        checkOpen();
        return consumer(physical.createSharedConsumer(topic, sharedSubscriptionName, messageSelector));
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        checkOpen();
        return consumer(physical.createDurableSubscriber(topic, name));
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        checkOpen();
        return consumer(physical.createDurableSubscriber(topic, name, messageSelector, noLocal));
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        checkOpen();
        return consumer(physical.createDurableConsumer(topic, name));
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        checkOpen();
        return consumer(physical.createDurableConsumer(topic, name, messageSelector, noLocal));
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        checkOpen();
        return consumer(physical.createSharedDurableConsumer(topic, name));
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector)
            throws JMSException {
        checkOpen();
        return consumer(physical.createSharedDurableConsumer(topic, name, messageSelector));
    }

    @Override
    public QueueReceiver createReceiver(Queue queue) throws JMSException {
        return (QueueReceiver) createConsumer(queue);
    }

    @Override
    public QueueReceiver createReceiver(Queue queue, String messageSelector) throws JMSException {
        return (QueueReceiver) createConsumer(queue, messageSelector);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic) throws JMSException {
        return (TopicSubscriber) createConsumer(topic);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic, String messageSelector, boolean noLocal)
            throws JMSException {
        return (TopicSubscriber) createConsumer(topic, messageSelector, noLocal);
    }

    // ------------------------------------------------------------------------------------------------ browsers

    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        checkOpen();
        QueueBrowser b = physical.createBrowser(queue, messageSelector);
        browsers.add(b);
        return b;
    }

    // ------------------------------------------------------------------------------------------------ §12.2

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        throw new IllegalStateException("Session.getMessageListener is not allowed in a Jakarta EE container "
                + "(Jakarta Messaging 3.1 §12.2)");
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        throw new IllegalStateException("Session.setMessageListener is not allowed in a Jakarta EE container "
                + "(Jakarta Messaging 3.1 §12.2)");
    }

    @Override
    public void run() {
        throw new IllegalStateRuntimeException("Session.run is not allowed in a Jakarta EE container (Jakarta "
                + "Messaging 3.1 §12.2)");
    }

    // ------------------------------------------------------------------------------------------------ close

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        closeQuietly();
        connection.sessionClosed(this);
    }

    /**
     * Closes the consumers (their prefetched messages go back), producers and browsers, and rolls back a local
     * transaction still open. The physical session stays open for the next handle.
     */
    void closeQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        for (ConsumerHandle c : consumers) {
            c.closeQuietly();
        }
        consumers.clear();
        for (ProducerHandle p : producers) {
            p.closeQuietly();
        }
        producers.clear();
        for (QueueBrowser b : browsers) {
            try {
                b.close();
            } catch (JMSException | RuntimeException e) {
                LOG.debug("closing a browser failed", e);
            }
        }
        browsers.clear();
        try {
            rollbackLocal();
        } catch (JMSException | RuntimeException e) {
            LOG.debug("rolling back a closed session's local transaction failed", e);
        }
    }

    boolean isClosed() {
        return closed;
    }

    void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("the session is closed");
        }
        connection.checkOpen();
    }

    static JMSException jms(String what, XAException e) {
        JMSException j = new JMSException(what + ": " + e.getMessage(), String.valueOf(e.errorCode));
        j.setLinkedException(e);
        j.initCause(e);
        return j;
    }

    @Override
    public String toString() {
        return "SessionHandle[" + mc + (closed ? ", closed" : "") + "]";
    }
}
