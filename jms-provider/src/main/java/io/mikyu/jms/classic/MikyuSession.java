package io.mikyu.jms.classic;

import io.mikyu.engine.security.Permission;
import io.mikyu.jms.Destinations;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.MikyuQueue;
import io.mikyu.jms.MikyuTopic;
import io.mikyu.jms.TemporaryDestinations;
import io.mikyu.jms.message.MessageCodec;
import io.mikyu.jms.message.MikyuBytesMessage;
import io.mikyu.jms.message.MikyuMapMessage;
import io.mikyu.jms.message.MikyuMessage;
import io.mikyu.jms.message.MikyuObjectMessage;
import io.mikyu.jms.message.MikyuStreamMessage;
import io.mikyu.jms.message.MikyuTextMessage;
import io.mikyu.jms.metrics.JmsMetrics;
import io.mikyu.selector.NoLocalFilter;
import jakarta.jms.BytesMessage;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
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
import jakarta.jms.TransactionRolledBackException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A JMS session: single-threaded as the spec has it — the application's thread for {@code receive}, one delivery
 * thread of its own for message listeners (started with the first listener). Acknowledgement modes become
 * engine acks and nacks of the leases its consumers took; a transacted session commits its sends
 * and acks as one engine transaction.
 *
 * <p>The session keeps its mode, its state and the rules that span its parts (recover, commit, rollback, close);
 * the parts are its collaborators: {@link SessionConsumers} makes consumers and browsers, {@link SessionSender}
 * sends, {@link SessionDelivery} hands messages to {@code receive} and listeners, {@link Acknowledgements} and
 * {@link SessionLeases} settle what was delivered, {@link TransactionWork} is the transaction.
 */
public class MikyuSession implements Session, QueueSession, TopicSession {

    private static final Logger LOG = LoggerFactory.getLogger(MikyuSession.class);
    /** The header a topic message carries with its producer's connection id, for noLocal subscribers. */
    static final String CONNECTION_HEADER = NoLocalFilter.CONNECTION_HEADER;

    final MikyuConnection connection;
    private final int mode;
    final MessageCodec codec = new MessageCodec(Destinations.CODEC);
    /** Its consumers and browsers, and how they are made. */
    final SessionConsumers consumers;
    private final List<MikyuMessageProducer> producers = new CopyOnWriteArrayList<>();
    /** Every message under a lease this session holds (buffered or delivered), for renewal. */
    final SessionLeases leases;
    /** Automatic acks waiting for their batch, CLIENT_ACKNOWLEDGE messages waiting for acknowledge(). */
    final Acknowledgements acks;
    /** How this session's sends reach the engine. */
    final SessionSender sender;
    /** A transacted session's current transaction; null for the other modes. */
    private final TransactionWork work;
    static final long ACK_DELAY_MILLIS = Acknowledgements.DELAY_MILLIS;
    /** Hands what the consumers hold to the application: receive, and the thread for listeners. */
    final SessionDelivery delivery;
    private volatile boolean closed;
    private MessageListener distinguishedListener;

    /** A QueueSession or TopicSession refuses the other domain's methods, as the JMS javadoc requires. */
    enum Domain { ANY, QUEUE, TOPIC }

    private final Domain domain;

    MikyuSession(MikyuConnection connection, int mode, Domain domain) {
        this.connection = connection;
        this.mode = mode;
        this.domain = domain;
        this.work = mode == SESSION_TRANSACTED ? new TransactionWork() : null;
        this.leases = new SessionLeases(connection);
        this.sender = new SessionSender(this);
        this.consumers = new SessionConsumers(this);
        this.delivery = new SessionDelivery(this, consumers.consumers());
        this.acks = new Acknowledgements(leases::released, connection.options.persistentDurability(),
                mode == DUPS_OK_ACKNOWLEDGE);
        JmsMetrics.GLOBAL.sessions.incrementAndGet();
    }

    /**
     * The transaction this session's sends and receives belong to now, or null when they take effect at once: a
     * transacted session's own, or (in {@link MikyuXASession}) the XA branch the session is associated with.
     */
    TransactionWork currentWork() {
        return work;
    }

    /** A message was consumed inside {@code w} (an XA branch bounds its lease by the branch's deadline). */
    void consumedIn(TransactionWork w, Held h) {
        w.consumed(h);
    }

    /** Whether messages are acknowledged when {@code receive} or {@code onMessage} returns. */
    boolean autoAck() {
        return (mode == AUTO_ACKNOWLEDGE || mode == DUPS_OK_ACKNOWLEDGE) && currentWork() == null;
    }

    /** Whether recover() is refused and commit/rollback belong to this session (or to an XA transaction). */
    boolean transactedSession() {
        return mode == SESSION_TRANSACTED;
    }

    // ============================================================================================ messages

    @Override
    public BytesMessage createBytesMessage() throws JMSException {
        checkOpen();
        return new MikyuBytesMessage();
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        checkOpen();
        return new MikyuMapMessage();
    }

    @Override
    public Message createMessage() throws JMSException {
        checkOpen();
        return new MikyuMessage();
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        checkOpen();
        return new MikyuObjectMessage();
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        checkOpen();
        MikyuObjectMessage m = new MikyuObjectMessage();
        m.setObject(object);
        return m;
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        checkOpen();
        return new MikyuStreamMessage();
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        checkOpen();
        return new MikyuTextMessage();
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        checkOpen();
        MikyuTextMessage m = new MikyuTextMessage();
        m.setText(text);
        return m;
    }

    // ============================================================================================ destinations

    @Override
    public Queue createQueue(String queueName) throws JMSException {
        queueDomainOnly("createQueue");
        checkOpen();
        return new MikyuQueue(checkName(queueName));
    }

    @Override
    public Topic createTopic(String topicName) throws JMSException {
        topicDomainOnly("createTopic");
        checkOpen();
        return new MikyuTopic(checkName(topicName));
    }

    private void queueDomainOnly(String method) throws IllegalStateException {
        if (domain == Domain.TOPIC) {
            throw new IllegalStateException(method + " is not for a TopicSession");
        }
    }

    private void topicDomainOnly(String method) throws IllegalStateException {
        if (domain == Domain.QUEUE) {
            throw new IllegalStateException(method + " is not for a QueueSession");
        }
    }

    private static String checkName(String name) throws InvalidDestinationException {
        if (name == null || name.isEmpty()) {
            throw new InvalidDestinationException("a destination name must not be null or empty");
        }
        return name;
    }

    @Override
    public TemporaryQueue createTemporaryQueue() throws JMSException {
        queueDomainOnly("createTemporaryQueue");
        checkOpen();
        return connection.createTemporaryQueue();
    }

    @Override
    public TemporaryTopic createTemporaryTopic() throws JMSException {
        topicDomainOnly("createTemporaryTopic");
        checkOpen();
        return connection.createTemporaryTopic();
    }

    /** The provider's form of any Queue or Topic (another provider's is read by name). */
    MikyuDestination resolve(Destination d) throws JMSException {
        if (d == null) {
            throw new InvalidDestinationException("the destination is null");
        }
        if (d instanceof MikyuDestination m) {
            return m;
        }
        return (MikyuDestination) Destinations.CODEC.fromText(Destinations.CODEC.toText(d));
    }

    /** Checks a destination can be used at all: a temporary one must still exist. */
    void checkUsable(MikyuDestination d) throws JMSException {
        if (TemporaryDestinations.isTemporaryName(d.name()) && connection.isDeletedTemporary(d)) {
            throw new InvalidDestinationException("temporary destination " + d.name() + " was deleted");
        }
    }

    // ============================================================================================ producers

    @Override
    public MessageProducer createProducer(Destination destination) throws JMSException {
        checkOpen();
        MikyuDestination d = destination == null ? null : resolve(destination);
        if (d != null) {
            checkUsable(d);
            connection.authorize(Permission.PRODUCE, d);
        }
        MikyuMessageProducer p = new MikyuMessageProducer(this, d);
        producers.add(p);
        JmsMetrics.GLOBAL.producers.incrementAndGet();
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

    void producerClosed(MikyuMessageProducer p) {
        if (producers.remove(p)) {
            JmsMetrics.GLOBAL.producers.decrementAndGet();
        }
    }

    // ============================================================================================ consumers

    @Override
    public MessageConsumer createConsumer(Destination destination) throws JMSException {
        return createConsumer(destination, null, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector) throws JMSException {
        return createConsumer(destination, messageSelector, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        checkOpen();
        return consumers.consumer(destination, messageSelector, noLocal);
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

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String messageSelector,
                                                   boolean noLocal) throws JMSException {
        topicDomainOnly("createDurableSubscriber");
        checkOpen();
        return consumers.durable(topic, name, messageSelector, noLocal);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal)
            throws JMSException {
        return createDurableSubscriber(topic, name, messageSelector, noLocal);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        return createSharedConsumer(topic, sharedSubscriptionName, null);
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName, String messageSelector)
            throws JMSException {
        return createShared(topic, sharedSubscriptionName, messageSelector, false);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        return createSharedDurableConsumer(topic, name, null);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector)
            throws JMSException {
        return createShared(topic, name, messageSelector, true);
    }

    private MessageConsumer createShared(Topic topic, String name, String messageSelector, boolean durable)
            throws JMSException {
        topicDomainOnly("createSharedConsumer");
        checkOpen();
        return consumers.shared(topic, name, messageSelector, durable);
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        topicDomainOnly("unsubscribe");
        checkOpen();
        consumers.unsubscribe(name);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        queueDomainOnly("createBrowser");
        checkOpen();
        return consumers.browser(queue, messageSelector);
    }

    // ============================================================================================ acknowledgement

    void acknowledgeFrom(MikyuMessage m) throws JMSException {
        if (closed) {
            throw new IllegalStateException("the session of this message is closed");
        }
        if (mode == CLIENT_ACKNOWLEDGE) {
            acknowledge();
        }
    }

    /** CLIENT_ACKNOWLEDGE: acknowledges every message the session delivered so far. */
    public void acknowledge() throws JMSException {
        checkOpen();
        if (mode != CLIENT_ACKNOWLEDGE) {
            return;
        }
        try {
            acks.acknowledgeAll();
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
    }

    @Override
    public void recover() throws JMSException {
        checkOpen();
        if (transactedSession()) {
            throw new IllegalStateException("recover() is not for a transacted session; use rollback()");
        }
        redeliverAll();
    }

    /** Recover and rollback: what the consumers buffered goes back untouched, what was delivered comes again. */
    private void redeliverAll() {
        acks.flush(); // what was acknowledged stays acknowledged
        delivery.lock().lock();
        try {
            for (MikyuMessageConsumer c : consumers.consumers()) {
                c.returnBuffered();
            }
            for (Held h : acks.takeUnacked()) {
                leases.settle(h, false, "recovered");
            }
            if (work != null) {
                work.take().rollback("rolled back");
            }
            delivery.redeliverInListener();
        } finally {
            delivery.lock().unlock();
        }
    }

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return mode == SESSION_TRANSACTED;
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        checkOpen();
        return mode;
    }

    int mode() {
        return mode;
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        if (mode != SESSION_TRANSACTED) {
            throw new IllegalStateException("commit() needs a transacted session");
        }
        if (CallbackThread.inCompletionCallbackOf(this)) {
            throw new IllegalStateException("a CompletionListener must not commit its own session");
        }
        TransactionWork.Taken taken = work.take();
        try {
            taken.commit(connection);
        } catch (RuntimeException e) {
            RuntimeException cause = CommitFailure.cause(e);
            if (CommitFailure.of(e) == CommitFailure.ROLLED_BACK) {
                taken.rollback("the transaction failed");
                throw JmsErrors.with(new TransactionRolledBackException("the transaction was rolled back: "
                        + cause.getMessage()), cause);
            }
            // Reporting a rollback here would make the application send again, or wait for messages that were
            // consumed for good: say that nobody knows.
            taken.abandon("the outcome of its commit is unknown");
            throw JmsErrors.with(new JMSException("the outcome of the commit is unknown: it may have taken effect;"
                    + " consumed messages it did not settle come back when their leases end (" + cause.getMessage()
                    + ")"), cause);
        }
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        if (mode != SESSION_TRANSACTED) {
            throw new IllegalStateException("rollback() needs a transacted session");
        }
        if (CallbackThread.inCompletionCallbackOf(this)) {
            throw new IllegalStateException("a CompletionListener must not roll back its own session");
        }
        redeliverAll();
    }

    // ============================================================================================ close

    @Override
    public void close() throws JMSException {
        if (CallbackThread.inCallbackOf(this)) {
            throw new IllegalStateException("a message or completion listener must not close its own session");
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        sender.closePipeline();
        delivery.wake();
        delivery.awaitThreadEnd();
        sender.awaitAsyncSends();
        delivery.lock().lock();
        try {
            acks.flush();
            for (MikyuMessageConsumer c : consumers.consumers()) {
                c.closeQuietly();
            }
            for (MikyuMessageProducer p : producers) {
                p.markClosed();
                producerClosed(p);
            }
            for (MikyuQueueBrowser b : consumers.browsers()) {
                b.markClosed();
            }
            if (work != null) {
                work.take().rollback("its session closed uncommitted");
            }
            closing();
            for (Held h : acks.takeUnacked()) {
                leases.settle(h, false, "its session closed unacknowledged");
            }
        } finally {
            delivery.lock().unlock();
        }
        connection.sessionClosed(this);
        JmsMetrics.GLOBAL.sessions.decrementAndGet();
    }

    /** Under the delivery lock while closing, before what the session holds is given back. */
    void closing() {
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

    // ============================================================================================ app server

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return distinguishedListener;
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        // An application-server facility (ServerSession); kept for getMessageListener, never called.
        distinguishedListener = listener;
    }

    @Override
    public void run() {
        throw new UnsupportedOperationException("Session.run is an application-server facility mikyu does not "
                + "provide; use the mikyu resource adapter");
    }

}
