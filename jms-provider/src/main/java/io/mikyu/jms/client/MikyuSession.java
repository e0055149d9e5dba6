package io.mikyu.jms.client;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TimeSource;
import io.mikyu.engine.security.Permission;
import io.mikyu.jms.Destinations;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.MikyuQueue;
import io.mikyu.jms.MikyuTopic;
import io.mikyu.jms.TemporaryDestinations;
import io.mikyu.jms.delivery.Inbound;
import io.mikyu.jms.delivery.LogCursorSource;
import io.mikyu.jms.delivery.MessageSource;
import io.mikyu.jms.delivery.TaskQueueSource;
import io.mikyu.jms.message.EncodedMessage;
import io.mikyu.jms.message.MessageCodec;
import io.mikyu.jms.message.MikyuBytesMessage;
import io.mikyu.jms.message.MikyuMapMessage;
import io.mikyu.jms.message.MikyuMessage;
import io.mikyu.jms.message.MikyuObjectMessage;
import io.mikyu.jms.message.MikyuStreamMessage;
import io.mikyu.jms.message.MikyuTextMessage;
import io.mikyu.jms.metrics.JmsMetrics;
import io.mikyu.selector.NoLocalFilter;
import io.mikyu.selector.Selector;
import io.mikyu.selector.SelectorSyntaxException;
import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A JMS session: single-threaded as the spec has it — the application's thread for {@code receive}, one delivery
 * thread of its own for message listeners (started with the first listener). Acknowledgement modes become
 * engine acks and nacks of the leases its consumers took; a transacted session commits its sends
 * and acks as one engine transaction.
 */
public class MikyuSession implements Session, QueueSession, TopicSession {

    private static final Logger LOG = LoggerFactory.getLogger(MikyuSession.class);
    /** The header a topic message carries with its producer's connection id, for noLocal subscribers. */
    static final String CONNECTION_HEADER = NoLocalFilter.CONNECTION_HEADER;
    private static final long SLICE_MILLIS = 100;

    final MikyuConnection connection;
    private final Subscriptions subscriptions;
    private final int mode;
    final MessageCodec codec = new MessageCodec(Destinations.CODEC);
    private final List<MikyuMessageConsumer> consumers = new CopyOnWriteArrayList<>();
    private final List<MikyuMessageProducer> producers = new CopyOnWriteArrayList<>();
    private final List<MikyuQueueBrowser> browsers = new CopyOnWriteArrayList<>();
    /** Every message under a lease this session holds (buffered or delivered), for renewal. */
    private final Set<Held> leased = ConcurrentHashMap.newKeySet();
    /** Automatic acks waiting for their batch, CLIENT_ACKNOWLEDGE messages waiting for acknowledge(). */
    private final Acknowledgements acks;
    /** A transacted session's current transaction; null for the other modes. */
    private final TransactionWork work;
    static final long ACK_DELAY_MILLIS = Acknowledgements.DELAY_MILLIS;
    /** Held while a message is being delivered, so stop() and close() can wait for delivery to pause. */
    private final ReentrantLock deliveryLock = new ReentrantLock();
    private final Object wakeup = new Object();
    private volatile boolean closed;
    private volatile Thread deliveryThread;
    /** The message a listener is being given (auto-acknowledging modes): recover() inside onMessage redelivers it. */
    private Held inListener;
    private ExecutorService asyncSender;
    private NonPersistentPipeline pipeline;
    /** Larger NON_PERSISTENT messages are written at once, so an error (too large, disk full) reaches send(). */
    private static final int PIPELINED_MAX_BYTES = 256 * 1024;
    private MessageListener distinguishedListener;

    /** A QueueSession or TopicSession refuses the other domain's methods, as the JMS javadoc requires. */
    enum Domain { ANY, QUEUE, TOPIC }

    private final Domain domain;

    MikyuSession(MikyuConnection connection, int mode, Domain domain) {
        this.connection = connection;
        this.subscriptions = new Subscriptions(connection);
        this.mode = mode;
        this.domain = domain;
        this.work = mode == SESSION_TRANSACTED ? new TransactionWork() : null;
        this.acks = new Acknowledgements(this::released, connection.options.persistentDurability());
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
    private boolean autoAck() {
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

    /** A consumer's or browser's selector; one that does not compile is the JMS {@link InvalidSelectorException}. */
    static Selector compileSelector(String messageSelector) throws InvalidSelectorException {
        try {
            return Selector.compile(messageSelector);
        } catch (SelectorSyntaxException e) {
            throw JmsErrors.with(new InvalidSelectorException(e.getMessage()), e);
        }
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

    /**
     * Sends (or, transacted, buffers) an encoded message; the producer has set every header. NON_PERSISTENT
     * messages go through the session's {@link NonPersistentPipeline} unless {@code direct}.
     */
    void send(MikyuDestination d, EncodedMessage m, boolean persistent, boolean direct) throws JMSException {
        checkOpen();
        TransactionWork w = currentWork();
        if (w != null) {
            w.send(d, m);
            return;
        }
        if (!persistent && d.isQueue() && !connection.options.isRemote()) {
            // A NON_PERSISTENT queue message lives in memory only (a transient task): no write at all. Over a
            // broker the same transient enqueue is a round trip, so there it goes through the pipeline below.
            flushPipeline();
            try {
                connection.taskQueue(d.name()).enqueueTransient(List.of(m.toTask()));
            } catch (RuntimeException e) {
                throw JmsErrors.of(e);
            }
            JmsMetrics.GLOBAL.sent(1);
            return;
        }
        if (!persistent && !direct && m.payload().length <= PIPELINED_MAX_BYTES) {
            pipeline().submit(d, m);
            JmsMetrics.GLOBAL.sent(1);
            return;
        }
        flushPipeline();
        Durability durability = persistent ? connection.options.persistentDurability() : Durability.ASYNC;
        try {
            if (d.isQueue()) {
                connection.taskQueue(d.name()).enqueue(m.toTask(), durability);
            } else {
                connection.logQueue(d.name()).append(m.toEntry(), durability);
            }
            JmsMetrics.GLOBAL.sent(1);
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
    }

    private synchronized NonPersistentPipeline pipeline() {
        if (pipeline == null) {
            pipeline = new NonPersistentPipeline(this);
        }
        return pipeline;
    }

    /** Waits until this session's queued NON_PERSISTENT sends are written. */
    void flushPipeline() {
        NonPersistentPipeline p;
        synchronized (this) {
            p = pipeline;
        }
        if (p != null) {
            p.flush();
        }
    }

    /** Runs an asynchronous send on the session's sender thread (sends complete in the order they were made). */
    void sendAsync(Runnable send) throws JMSException {
        checkOpen();
        flushPipeline();
        synchronized (this) {
            if (asyncSender == null) {
                asyncSender = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "mikyu-jms-async-send-" + connection.id);
                    t.setDaemon(true);
                    return t;
                });
            }
            asyncSender.execute(send);
        }
    }

    /** Calls a completion listener as JMS requires: on a provider thread, flagged so it cannot close us. */
    void complete(CompletionListener listener, Message message, Exception failure) {
        CallbackThread.Scope before = CallbackThread.enter(connection, this, true);
        try {
            if (failure == null) {
                listener.onCompletion(message);
            } else {
                listener.onException(message, failure);
            }
        } catch (RuntimeException e) {
            LOG.warn("a CompletionListener threw", e);
        } finally {
            CallbackThread.exit(before);
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
        MikyuDestination d = resolve(destination);
        checkUsable(d);
        connection.authorize(Permission.CONSUME, d);
        Selector selector = compileSelector(messageSelector);
        if (TemporaryDestinations.isTemporaryName(d.name()) && !connection.owns(d)) {
            throw new InvalidDestinationException("temporary destination " + d.name()
                    + " can only be consumed by the connection that created it");
        }
        MessageSource source;
        try {
            if (d.isQueue()) {
                source = new TaskQueueSource(queueForConsumer(d.name()), selector.isMatchAll() ? null : selector);
            } else {
                LogQueue log = connection.logQueue(d.name());
                source = new LogCursorSource(log, subscriptions.topicFilter(selector, noLocal),
                        connection.options.maxAttemptsOf(d.name()));
            }
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
        return addConsumer(d, selector, noLocal, source, null);
    }

    private TaskQueue queueForConsumer(String name) {
        // "<queue>/dlq" names a dead-letter queue, which exists with its queue and is never created here.
        return name.contains("/") ? connection.engine.taskQueue(name) : connection.taskQueue(name);
    }

    private MikyuMessageConsumer addConsumer(MikyuDestination d, Selector selector, boolean noLocal,
                                             MessageSource source, String subscription) throws JMSException {
        MikyuMessageConsumer c = new MikyuMessageConsumer(this, d, selector, noLocal, source, subscription);
        consumers.add(c);
        JmsMetrics.GLOBAL.consumers.incrementAndGet();
        return c;
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
        MikyuDestination d = topicOf(topic);
        Subscriptions.checkName(name);
        Selector selector = compileSelector(messageSelector);
        return subscriptions.durable(d, name, selector, noLocal,
                (source, group) -> addConsumer(d, selector, noLocal, source, group));
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
        MikyuDestination d = topicOf(topic);
        Subscriptions.checkName(name);
        Selector selector = compileSelector(messageSelector);
        return subscriptions.shared(d, name, selector, durable,
                (source, group) -> addConsumer(d, selector, false, source, group));
    }

    private MikyuDestination topicOf(Topic topic) throws JMSException {
        MikyuDestination d = resolve(topic);
        if (d.isQueue()) {
            throw new InvalidDestinationException(d + " is not a topic");
        }
        checkUsable(d);
        connection.authorize(Permission.CONSUME, d);
        return d;
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        topicDomainOnly("unsubscribe");
        checkOpen();
        Subscriptions.checkName(name);
        flushAcks();
        subscriptions.unsubscribe(name, this::hasUnackedFrom);
    }

    private boolean hasUnackedFrom(String group) {
        TransactionWork w = currentWork();
        if (w != null && w.consumedFrom(group)) {
            return true;
        }
        return acks.unackedFrom(group);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        return createBrowser(queue, null);
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        queueDomainOnly("createBrowser");
        checkOpen();
        MikyuDestination d = resolve(queue);
        if (!d.isQueue()) {
            throw new InvalidDestinationException(d + " is not a queue");
        }
        checkUsable(d);
        connection.authorize(Permission.CONSUME, d);
        Selector selector = compileSelector(messageSelector);
        TaskQueue q;
        try {
            q = queueForConsumer(d.name());
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
        MikyuQueueBrowser b = new MikyuQueueBrowser(this, (MikyuQueue) d, selector, q);
        browsers.add(b);
        return b;
    }

    void browserClosed(MikyuQueueBrowser b) {
        browsers.remove(b);
    }

    boolean hasConsumerOn(MikyuDestination d) {
        for (MikyuMessageConsumer c : consumers) {
            if (c.destination().equals(d)) {
                return true;
            }
        }
        return false;
    }

    // ============================================================================================ delivery

    /** A consumer's synchronous receive: {@code timeout} 0 waits forever, below 0 does not wait. */
    Message receive(MikyuMessageConsumer c, long timeout) throws JMSException {
        return receive(c, timeout, null);
    }

    /**
     * As {@link #receive(MikyuMessageConsumer, long)}; when {@code accept} declines the message in an automatically
     * acknowledging session, it is neither acked nor counted, and stays the consumer's next message.
     */
    Message receive(MikyuMessageConsumer c, long timeout, java.util.function.Predicate<? super Message> accept)
            throws JMSException {
        // A receive timeout is a duration: timed by the steady clock, which a step of the host's clock leaves alone.
        long deadline = timeout < 0 ? 0 : timeout == 0 ? Long.MAX_VALUE : TimeSource.system().steadyMillis() + timeout;
        connection.flushNonPersistent(); // a receive sees what its own connection sent before
        try {
            while (true) {
                if (c.isClosed() || closed) {
                    return null;
                }
                long remaining = deadline == Long.MAX_VALUE ? SLICE_MILLIS : deadline - TimeSource.system().steadyMillis();
                if (!connection.isStarted()) {
                    if (remaining <= 0 || !connection.awaitStarted(Math.min(remaining, SLICE_MILLIS))) {
                        if (timeout < 0 || TimeSource.system().steadyMillis() >= deadline) {
                            return null;
                        }
                        continue;
                    }
                }
                Held h = c.take(Duration.ofMillis(Math.max(0, Math.min(remaining, SLICE_MILLIS))));
                if (h == null) {
                    if (TimeSource.system().steadyMillis() >= deadline) {
                        return null;
                    }
                    continue;
                }
                deliveryLock.lock();
                try {
                    if (c.isClosed() || closed || !connection.isStarted()) {
                        c.putBack(h);
                        continue;
                    }
                    MikyuMessage m = open(c, h);
                    if (m == null) {
                        continue;
                    }
                    if (accept != null && !accept.test(m) && autoAck()) {
                        c.putBack(h);
                        return m;
                    }
                    delivered(h);
                    return m;
                } finally {
                    deliveryLock.unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Decodes a held message for delivery; null (and the message settled) if it expired or cannot be read. */
    private MikyuMessage open(MikyuMessageConsumer c, Held h) {
        Inbound in = h.inbound;
        MikyuMessage m;
        try {
            m = codec.decode(in.headers(), in.payload(), in.attempt(), c.destination());
        } catch (JMSException | RuntimeException e) {
            LOG.warn("a message of {} cannot be decoded and is nacked (it will reach the dead-letter queue): {}",
                    c.destination(), e.toString());
            settle(h, false, "undecodable: " + e);
            return null;
        }
        long expiration = m.getJMSExpiration();
        if (expiration > 0 && expiration <= System.currentTimeMillis()) {
            settle(h, true, null); // expired while buffered: drop it
            return null;
        }
        m.setAcknowledger(this::acknowledgeFrom);
        JmsMetrics.GLOBAL.delivered(in.attempt() > 1);
        return m;
    }

    /** After a message was handed to the application (receive returned, or onMessage returned normally). */
    private void delivered(Held h) {
        TransactionWork w = currentWork();
        if (w != null) {
            consumedIn(w, h);
        } else if (autoAck()) {
            acks.ackSoon(h);
        } else {
            acks.delivered(h);
        }
    }

    /** Writes the waiting automatic acks. */
    void flushAcks() {
        acks.flush();
    }

    /** The connection's timer: acks that waited long enough are written. */
    void flushAcksIfDue() {
        acks.flushIfDue();
    }

    /** Acks (or nacks, for immediate redelivery) one held message. */
    void settle(Held h, boolean ack, String reason) {
        leased.remove(h);
        try {
            if (ack) {
                h.source.ack(List.of(h.token()), connection.options.persistentDurability());
            } else {
                h.source.nack(h.token(), connection.options.redeliveryDelayOf(h.consumer.destination().name()),
                        reason);
            }
        } catch (StaleLeaseException e) {
            LOG.warn("a message's lease ended before it was settled; it was or will be delivered again: {}",
                    e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("settling a message failed; it will be delivered again", e);
        }
    }

    void leased(Held h) {
        leased.add(h);
    }

    void released(Held h) {
        leased.remove(h);
    }

    /** The session's delivery thread: delivers to every consumer with a listener while the connection runs. */
    private void deliveryLoop() {
        while (!closed) {
            try {
                List<MikyuMessageConsumer> listening = new ArrayList<>();
                for (MikyuMessageConsumer c : consumers) {
                    if (c.listener() != null && !c.isClosed()) {
                        listening.add(c);
                    }
                }
                if (listening.isEmpty() || !connection.isStarted()) {
                    synchronized (wakeup) {
                        if (!closed) {
                            wakeup.wait(SLICE_MILLIS);
                        }
                    }
                    continue;
                }
                boolean any = false;
                Duration wait = listening.size() == 1 ? Duration.ofMillis(SLICE_MILLIS) : Duration.ZERO;
                for (MikyuMessageConsumer c : listening) {
                    Held h = c.take(wait);
                    if (h != null) {
                        any = true;
                        deliverToListener(c, h);
                    }
                }
                if (!any && listening.size() > 1) {
                    synchronized (wakeup) {
                        wakeup.wait(5);
                    }
                }
            } catch (InterruptedException e) {
                if (closed) {
                    return;
                }
            } catch (RuntimeException e) {
                LOG.error("the delivery thread of a session of {} failed; it goes on", connection, e);
            }
        }
    }

    private void deliverToListener(MikyuMessageConsumer c, Held h) {
        deliveryLock.lock();
        try {
            MessageListener listener = c.listener();
            if (closed || c.isClosed() || listener == null || !connection.isStarted()) {
                c.putBack(h);
                return;
            }
            MikyuMessage m = open(c, h);
            if (m == null) {
                return;
            }
            boolean auto = autoAck();
            if (auto) {
                inListener = h; // acked when onMessage returns, unless it recovers the session first
            } else {
                delivered(h); // part of the session's next acknowledge(), commit() or recover(), even inside onMessage
            }
            CallbackThread.Scope before = CallbackThread.enter(connection, this, false);
            boolean threw = false;
            try {
                listener.onMessage(m);
            } catch (RuntimeException e) {
                threw = true;
                LOG.warn("the MessageListener of {} threw; the message will be delivered again", c.destination(), e);
            } finally {
                CallbackThread.exit(before);
            }
            if (auto && inListener != null) {
                inListener = null;
                if (threw) {
                    settle(h, false, "the message listener threw");
                } else {
                    acks.ackSoon(h);
                }
            }
        } finally {
            deliveryLock.unlock();
        }
    }

    /** A consumer got a listener: make sure the delivery thread runs. */
    void listenerSet() {
        synchronized (this) {
            if (deliveryThread == null && !closed) {
                Thread t = new Thread(this::deliveryLoop, "mikyu-jms-session-" + connection.id);
                t.setDaemon(true);
                deliveryThread = t;
                t.start();
            }
        }
        wakeDelivery();
    }

    void wakeDelivery() {
        synchronized (wakeup) {
            wakeup.notifyAll();
        }
    }

    /** Waits until no message is being delivered (the connection was stopped). */
    void awaitDeliveryPaused() {
        if (deliveryLock.isHeldByCurrentThread()) {
            return;
        }
        deliveryLock.lock();
        deliveryLock.unlock();
    }

    // ============================================================================================ acknowledgement

    private void acknowledgeFrom(MikyuMessage m) throws JMSException {
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
        flushAcks(); // what was acknowledged stays acknowledged
        deliveryLock.lock();
        try {
            for (MikyuMessageConsumer c : consumers) {
                c.returnBuffered();
            }
            for (Held h : acks.takeUnacked()) {
                settle(h, false, "recovered");
            }
            if (work != null) {
                work.take().rollback("rolled back");
            }
            if (inListener != null && deliveryLock.isHeldByCurrentThread()) {
                settle(inListener, false, "recovered");
                inListener = null;
            }
        } finally {
            deliveryLock.unlock();
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

    // ============================================================================================ leases

    void renewLeases(Duration lease) {
        long now = TimeSource.system().steadyMillis(); // the scale of the engine's lease ends: steady time
        long threshold = now + lease.toMillis() / 2;
        for (Held h : leased) {
            if (h.leaseUntil < threshold) {
                try {
                    h.leaseUntil = h.source.extend(h.token(), lease);
                } catch (StaleLeaseException e) {
                    leased.remove(h);
                    h.consumer.forget(h); // if still buffered: the store hands it out again, this copy never
                } catch (RuntimeException e) {
                    LOG.debug("renewing a lease failed", e);
                }
            }
        }
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
        NonPersistentPipeline queued;
        synchronized (this) {
            queued = pipeline;
        }
        if (queued != null) {
            queued.close();
        }
        wakeDelivery();
        Thread t = deliveryThread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ExecutorService sender;
        synchronized (this) {
            sender = asyncSender;
        }
        if (sender != null) {
            sender.shutdown();
            try {
                sender.awaitTermination(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        deliveryLock.lock();
        try {
            flushAcks();
            for (MikyuMessageConsumer c : consumers) {
                c.closeQuietly();
            }
            for (MikyuMessageProducer p : producers) {
                p.markClosed();
                producerClosed(p);
            }
            for (MikyuQueueBrowser b : browsers) {
                b.markClosed();
            }
            if (work != null) {
                work.take().rollback("its session closed uncommitted");
            }
            closing();
            for (Held h : acks.takeUnacked()) {
                settle(h, false, "its session closed unacknowledged");
            }
        } finally {
            deliveryLock.unlock();
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

    void consumerClosed(MikyuMessageConsumer c) {
        if (consumers.remove(c)) {
            JmsMetrics.GLOBAL.consumers.decrementAndGet();
        }
    }

    boolean inDelivery() {
        return deliveryLock.isHeldByCurrentThread();
    }

    ReentrantLock deliveryLock() {
        return deliveryLock;
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
