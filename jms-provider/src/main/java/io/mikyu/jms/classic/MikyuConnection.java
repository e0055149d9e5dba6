package io.mikyu.jms.classic;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Secrets;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.security.Permission;
import io.mikyu.engine.security.Principal;
import io.mikyu.jms.ConnectionOpener;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.MikyuTemporaryQueue;
import io.mikyu.jms.MikyuTemporaryTopic;
import io.mikyu.jms.TemporaryDestinations;
import io.mikyu.jms.config.ProviderOptions;
import io.mikyu.jms.embedded.EmbeddedEngines;
import io.mikyu.jms.metrics.JmsMetrics;
import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Queue;
import jakarta.jms.QueueSession;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A JMS connection to an embedded engine ({@code vm://}) or a broker ({@code tcp://}, {@code unix://}, through
 * {@link Mikyu#dial(String)}). It holds a share of the engine, the client ID, the
 * started/stopped state every session's delivery follows, its temporary destinations, and a timer that renews
 * the leases of messages its sessions hold.
 */
public class MikyuConnection implements ConnectionOpener.AnyDomainConnection, TemporaryDestinations {

    private static final Logger LOG = LoggerFactory.getLogger(MikyuConnection.class);
    private static final String REGISTRY = "io.mikyu.jms.registry";
    /** One timer thread for every connection's lease renewal. */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mikyu-jms-leases");
        t.setDaemon(true);
        return t;
    });

    final String id = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    final ProviderOptions options;
    private final EmbeddedEngines.Handle engineHandle;
    final Mikyu engine;
    final ProviderRegistry registry;
    /** Who connected to an embedded engine; unrestricted on a broker, which checks every request itself. */
    private final Principal principal;
    private final ScheduledFuture<?> renewal;
    private final ScheduledFuture<?> ackFlush;
    private final List<MikyuSession> sessions = new CopyOnWriteArrayList<>();
    private final Set<String> temporaries = ConcurrentHashMap.newKeySet();
    private final AtomicInteger temporaryCounter = new AtomicInteger();
    private final AtomicLong messageCounter = new AtomicLong();
    private final Object startLock = new Object();
    /** NON_PERSISTENT messages queued in the sessions' pipelines and not yet written. */
    private final AtomicLong nonPersistentPending = new AtomicLong();

    private String clientId;
    private boolean clientIdClaimed;
    private volatile boolean used;
    private volatile boolean started;
    private volatile boolean closed;
    private volatile ExceptionListener exceptionListener;
    private volatile boolean lostReported;

    MikyuConnection(ProviderOptions options, EmbeddedEngines.Handle engineHandle, Principal principal) {
        this.options = options;
        this.principal = principal;
        this.engineHandle = engineHandle;
        this.engine = engineHandle.engine();
        this.registry = (ProviderRegistry) engineHandle.attachments().computeIfAbsent(REGISTRY,
                k -> new ProviderRegistry(engineHandle.engine()));
        this.clientId = options.clientId();
        long period = Math.max(50, options.lease().toMillis() / 3);
        JmsMetrics.GLOBAL.connections.incrementAndGet();
        this.renewal = TIMER.scheduleWithFixedDelay(this::renewLeases, period, period, TimeUnit.MILLISECONDS);
        this.ackFlush = TIMER.scheduleWithFixedDelay(this::flushDueAcks, MikyuSession.ACK_DELAY_MILLIS,
                MikyuSession.ACK_DELAY_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * On an embedded engine with users: whether this connection's user may produce to or consume from {@code d}
     * (a temporary destination of its own it always may). On a broker the broker decides, request by request.
     */
    void authorize(Permission permission, MikyuDestination d) throws JMSSecurityException {
        if (principal.unrestricted() || principal.may(permission, d.name())
                || (TemporaryDestinations.isTemporaryName(d.name()) && owns(d))) {
            return;
        }
        throw new JMSSecurityException("user '" + principal.name() + "' lacks the " + permission.key()
                + " permission on " + (d.isQueue() ? "queue" : "topic") + " '" + d.name() + "'");
    }

    // ------------------------------------------------------------------------------------------------ engine

    TaskQueue taskQueue(String name) {
        TaskQueue q = registry.taskQueues.get(name);
        if (q == null) {
            // A message whose lease ended (its consumer died, its XA branch timed out) comes back after the same
            // redeliveryDelay as a recovered one, not after the engine's default backoff.
            Duration delay = options.redeliveryDelayOf(name);
            q = engine.getOrCreateTaskQueue(name, TaskQueueConfig.defaults().withDurability(Durability.ASYNC)
                    .withMaxAttempts(options.maxAttemptsOf(name)).withDefaultLease(options.lease())
                    .withBackoff(delay, 1.0, delay));
            registry.taskQueues.put(name, q);
        }
        return q;
    }

    LogQueue logQueue(String name) {
        LogQueue q = registry.logQueues.get(name);
        if (q == null) {
            q = engine.getOrCreateLog(name, LogQueueConfig.defaults().withDurability(Durability.ASYNC));
            registry.logQueues.put(name, q);
        }
        return q;
    }

    /** Engine queue handles cached by name are dropped when the queue is deleted. */
    void forget(String name) {
        registry.taskQueues.remove(name);
        registry.logQueues.remove(name);
    }

    void nonPersistentQueued() {
        nonPersistentPending.incrementAndGet();
    }

    void nonPersistentWritten(int n) {
        nonPersistentPending.addAndGet(-n);
    }

    /**
     * Waits until every NON_PERSISTENT message this connection's sessions queued is written, but not for a write
     * waiting for the store to free memory (the receive that calls this may be what frees it).
     */
    void flushNonPersistent() {
        if (nonPersistentPending.get() > 0) {
            for (MikyuSession s : sessions) {
                s.sender.flushPipelineUnlessWaitingForMemory();
            }
        }
    }

    String nextMessageId() {
        return "ID:" + id + "-" + messageCounter.incrementAndGet();
    }

    // ------------------------------------------------------------------------------------------------ sessions

    @Override
    public Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return createSession(sessionModeOf(transacted, acknowledgeMode));
    }

    private static int sessionModeOf(boolean transacted, int acknowledgeMode) throws JMSException {
        if (transacted) {
            return Session.SESSION_TRANSACTED;
        }
        if (acknowledgeMode != Session.AUTO_ACKNOWLEDGE && acknowledgeMode != Session.CLIENT_ACKNOWLEDGE
                && acknowledgeMode != Session.DUPS_OK_ACKNOWLEDGE) {
            throw new JMSException("invalid acknowledge mode " + acknowledgeMode
                    + ": use AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE or DUPS_OK_ACKNOWLEDGE (or a transacted session)");
        }
        return acknowledgeMode;
    }

    @Override
    public Session createSession(int sessionMode) throws JMSException {
        checkOpen();
        if (sessionMode != Session.SESSION_TRANSACTED && sessionMode != Session.AUTO_ACKNOWLEDGE
                && sessionMode != Session.CLIENT_ACKNOWLEDGE && sessionMode != Session.DUPS_OK_ACKNOWLEDGE) {
            throw new JMSException("invalid session mode " + sessionMode);
        }
        used = true;
        return newSession(sessionMode, MikyuSession.Domain.ANY);
    }

    private MikyuSession newSession(int sessionMode, MikyuSession.Domain domain) throws JMSException {
        return addSession(() -> new MikyuSession(this, sessionMode, domain));
    }

    <S extends MikyuSession> S addSession(java.util.function.Supplier<S> session) throws JMSException {
        checkOpen();
        used = true;
        S s = session.get();
        sessions.add(s);
        return s;
    }

    /** The user an embedded engine's connection authenticated as; null on a broker (it knows) or without users. */
    String userName() {
        return principal.name();
    }

    @Override
    public Session createSession() throws JMSException {
        return createSession(Session.AUTO_ACKNOWLEDGE);
    }

    @Override
    public QueueSession createQueueSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return newSession(sessionModeOf(transacted, acknowledgeMode), MikyuSession.Domain.QUEUE);
    }

    @Override
    public TopicSession createTopicSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return newSession(sessionModeOf(transacted, acknowledgeMode), MikyuSession.Domain.TOPIC);
    }

    void sessionClosed(MikyuSession s) {
        sessions.remove(s);
    }

    // ------------------------------------------------------------------------------------------------ client ID

    @Override
    public synchronized String getClientID() throws JMSException {
        checkOpen();
        return clientId;
    }

    @Override
    public synchronized void setClientID(String id) throws JMSException {
        checkOpen();
        if (clientId != null) {
            throw new IllegalStateException("the client ID is already set to '" + clientId + "'");
        }
        if (used) {
            throw new IllegalStateException("the client ID must be set before the connection is used");
        }
        if (id == null || id.isEmpty()) {
            throw new InvalidClientIDException("a client ID must not be null or empty");
        }
        if (!registry.claimClientId(id)) {
            throw new InvalidClientIDException("client ID '" + id + "' is in use by another connection");
        }
        clientId = id;
        clientIdClaimed = true;
    }

    synchronized String clientIdForUse() {
        used = true;
        return clientId;
    }

    // ------------------------------------------------------------------------------------------------ start, stop

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        checkOpen();
        return MikyuConnectionMetaData.INSTANCE;
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        checkOpen();
        return exceptionListener;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        checkOpen();
        used = true;
        this.exceptionListener = listener;
    }

    @Override
    public void start() throws JMSException {
        checkOpen();
        used = true;
        synchronized (startLock) {
            started = true;
            startLock.notifyAll();
        }
        for (MikyuSession s : sessions) {
            s.delivery.wake();
        }
    }

    @Override
    public void stop() throws JMSException {
        checkOpen();
        if (CallbackThread.inMessageListenerOf(this)) {
            throw new IllegalStateException("a message listener must not stop its own connection");
        }
        used = true;
        started = false;
        for (MikyuSession s : sessions) {
            s.delivery.awaitPaused();
        }
    }

    boolean isStarted() {
        return started;
    }

    /** Waits up to {@code millis} for the connection to start; returns whether it is started. */
    boolean awaitStarted(long millis) throws InterruptedException {
        synchronized (startLock) {
            if (!started && !closed && millis > 0) {
                startLock.wait(millis);
            }
            return started;
        }
    }

    @Override
    public void close() throws JMSException {
        if (CallbackThread.inCallbackOf(this)) {
            throw new IllegalStateException("a message or completion listener must not close its own connection");
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        started = false;
        synchronized (startLock) {
            startLock.notifyAll();
        }
        renewal.cancel(false);
        ackFlush.cancel(false);
        for (MikyuSession s : sessions) {
            try {
                s.close();
            } catch (JMSException | RuntimeException e) {
                LOG.warn("closing a session of connection {} failed", id, e);
            }
        }
        for (String name : temporaries) {
            deleteTemporaryQueueOrTopic(name);
        }
        synchronized (this) {
            if (clientIdClaimed) {
                registry.releaseClientId(clientId);
            }
        }
        engineHandle.release();
        JmsMetrics.GLOBAL.connections.decrementAndGet();
    }

    boolean isClosed() {
        return closed;
    }

    void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("the connection is closed");
        }
    }

    /** Reports a failure no call could report (e.g. of a renewal) to the ExceptionListener. */
    void report(JMSException e) {
        ExceptionListener l = exceptionListener;
        if (l != null) {
            try {
                l.onException(e);
            } catch (RuntimeException ignored) {
                LOG.warn("the ExceptionListener of connection {} threw", id, ignored);
            }
        }
    }

    private void flushDueAcks() {
        for (MikyuSession s : sessions) {
            s.acks.flushIfDue(); // acks that waited long enough are written
        }
    }

    private void renewLeases() {
        if (options.isRemote() && !engine.isOpen()) {
            if (!lostReported) {
                lostReported = true;
                report(new JMSException("lost the connection to the mikyu broker at " + options.brokerUri()
                        + " and could not reconnect (reconnect=" + options.dialOptions().get("reconnect")
                        + "): close this connection and create a new one"));
            }
            return;
        }
        for (MikyuSession s : sessions) {
            try {
                s.leases.renew(options.lease());
            } catch (RuntimeException e) {
                LOG.debug("renewing leases of a session of connection {} failed", id, e);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ temporary

    MikyuTemporaryQueue createTemporaryQueue() throws JMSException {
        checkOpen();
        String name = PREFIX + id + "." + temporaryCounter.incrementAndGet();
        try {
            registry.claimTemporary(name);
            taskQueue(name);
        } catch (RuntimeException e) {
            registry.releaseTemporary(name);
            throw JmsErrors.of(e);
        }
        temporaries.add(name);
        return new MikyuTemporaryQueue(name, this);
    }

    MikyuTemporaryTopic createTemporaryTopic() throws JMSException {
        checkOpen();
        String name = PREFIX + id + "." + temporaryCounter.incrementAndGet();
        try {
            registry.claimTemporary(name);
            logQueue(name);
        } catch (RuntimeException e) {
            registry.releaseTemporary(name);
            throw JmsErrors.of(e);
        }
        temporaries.add(name);
        return new MikyuTemporaryTopic(name, this);
    }

    @Override
    public boolean owns(MikyuDestination destination) {
        return temporaries.contains(destination.name());
    }

    /** True if the destination is a temporary one that no longer exists (deleted, or its connection closed). */
    boolean isDeletedTemporary(MikyuDestination d) {
        if (!TemporaryDestinations.isTemporaryName(d.name())) {
            return false;
        }
        return d.isQueue() ? !engine.list(QueueKind.TASK).contains(d.name())
                : !engine.list(QueueKind.LOG).contains(d.name());
    }

    @Override
    public void deleteTemporary(MikyuDestination destination) throws JMSException {
        checkOpen();
        for (MikyuSession s : sessions) {
            if (s.consumers.hasConsumerOn(destination)) {
                throw new JMSException("temporary destination " + destination.name()
                        + " still has a consumer; close it first");
            }
        }
        if (temporaries.remove(destination.name())) {
            deleteTemporaryQueueOrTopic(destination.name());
        }
    }

    private void deleteTemporaryQueueOrTopic(String name) {
        forget(name);
        try {
            if (!engine.deleteTaskQueue(name)) {
                engine.deleteLog(name);
            }
        } catch (RuntimeException e) {
            LOG.warn("deleting temporary destination {} failed", name, e);
        } finally {
            registry.releaseTemporary(name);
        }
    }

    // ------------------------------------------------------------------------------------------------ app server

    @Override
    public ConnectionConsumer createConnectionConsumer(Destination destination, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw unsupportedConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createSharedConnectionConsumer(Topic topic, String subscriptionName,
                                                             String messageSelector, ServerSessionPool sessionPool,
                                                             int maxMessages) throws JMSException {
        throw unsupportedConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                              String messageSelector, ServerSessionPool sessionPool,
                                                              int maxMessages) throws JMSException {
        throw unsupportedConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                                    String messageSelector,
                                                                    ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw unsupportedConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Queue queue, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw unsupportedConnectionConsumer();
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Topic topic, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        throw unsupportedConnectionConsumer();
    }

    private JMSException unsupportedConnectionConsumer() throws JMSException {
        checkOpen();
        // Optional in Jakarta Messaging (an application-server facility); message-driven beans use the resource
        // adapter instead.
        return new JMSException("connection consumers are not supported; use the mikyu resource adapter");
    }

    Duration lease() {
        return options.lease();
    }

    @Override
    public String toString() {
        return "MikyuConnection[" + id + ", " + Secrets.redact(options.url()) + "]";
    }
}
