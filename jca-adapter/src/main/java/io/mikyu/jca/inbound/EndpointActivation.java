package io.mikyu.jca.inbound;

import io.mikyu.jms.MikyuXAConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.XAConnection;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkAdapter;
import jakarta.resource.spi.work.WorkEvent;
import jakarta.resource.spi.work.WorkException;
import jakarta.resource.spi.work.WorkManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * One message endpoint's activation: connects (retrying every {@code setupInterval} while mikyu cannot be reached,
 * up to {@code setupAttempts}), opens the delivering sessions ({@link InboundSession}) on one XA connection and
 * runs them on the WorkManager; starts over the same way when the connection is lost for good. Deactivation stops
 * taking messages, gives prefetched ones back, waits for deliveries in progress and closes the connection.
 */
final class EndpointActivation {

    private static final Logger LOG = LoggerFactory.getLogger(EndpointActivation.class);
    /** How long deactivation waits for the deliveries in progress before it closes the connection anyway. */
    private static final long DRAIN_MILLIS = 60_000;

    private final MessageEndpointFactory factory;
    private final MikyuActivationSpec spec;
    private final BootstrapContext bootstrap;
    private final boolean transacted;
    private final String name;
    private final Object lock = new Object();
    /** The current connection and its sessions (guarded by lock). */
    private XAConnection connection;
    private final List<InboundSession> sessions = new ArrayList<>();
    private boolean stopped;
    private int generation;

    EndpointActivation(MessageEndpointFactory factory, MikyuActivationSpec spec, BootstrapContext bootstrap)
            throws ResourceException {
        this.factory = factory;
        this.spec = spec;
        this.bootstrap = bootstrap;
        try {
            this.transacted = factory.isDeliveryTransacted(InboundSession.ON_MESSAGE);
        } catch (NoSuchMethodException e) {
            throw new ResourceException("the endpoint has no onMessage(Message) method", e);
        }
        String endpoint = factory.getActivationName() != null ? factory.getActivationName()
                : factory.getEndpointClass() != null ? factory.getEndpointClass().getSimpleName() : "endpoint";
        this.name = "mikyu inbound " + spec.describeDestination() + " -> " + endpoint;
    }

    /** Starts connecting, on the WorkManager; the first attempt's failure is only logged, and retried. */
    void start() throws ResourceException {
        schedule(new Setup(0), "setting up");
    }

    // ------------------------------------------------------------------------------------------------ setup

    /** Connects, retrying; once connected, the sessions run. */
    private final class Setup implements Work {

        private final int after;

        Setup(int after) {
            this.after = after;
        }

        @Override
        public void run() {
            int attempts = spec.getSetupAttempts();
            for (int attempt = 1; ; attempt++) {
                synchronized (lock) {
                    if (stopped || generation != after) {
                        return;
                    }
                }
                try {
                    connect(after);
                    if (attempt > 1) {
                        LOG.info("{}: connected after {} attempts", name, attempt);
                    }
                    return;
                } catch (Exception e) {
                    if (attempts > 0 && attempt >= attempts) {
                        LOG.error("{}: cannot connect after {} attempts; giving up (setupAttempts={}): {}", name,
                                attempt, attempts, e.toString());
                        return;
                    }
                    LOG.warn("{}: cannot connect (attempt {}{}); trying again in {} ms: {}", name, attempt,
                            attempts > 0 ? " of " + attempts : "", spec.getSetupInterval(), e.toString());
                    LOG.debug("{}: connection failure", name, e);
                }
                synchronized (lock) {
                    if (stopped) {
                        return;
                    }
                    try {
                        lock.wait(Math.max(1, spec.getSetupInterval()));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }

        @Override
        public void release() {
            synchronized (lock) {
                lock.notifyAll();
            }
        }
    }

    private void connect(int expectedGeneration) throws Exception {
        ActivationTarget target = ActivationTarget.resolve(spec);
        XAConnection c = new MikyuXAConnectionFactory(target.settings().url())
                .createXAConnection(target.settings().user(), target.settings().password());
        List<InboundSession> opened = new ArrayList<>();
        try {
            c.setExceptionListener(this::lost);
            boolean hints = supportsHints();
            for (int i = 1; i <= target.sessions(); i++) {
                Session s = transacted ? c.createXASession()
                        : c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                opened.add(new InboundSession(name + " #" + i, factory, s, consumer(s, target), transacted,
                        bootstrap.getTransactionSynchronizationRegistry(), hints));
            }
            c.start();
            synchronized (lock) {
                if (stopped || generation != expectedGeneration) {
                    throw new IllegalStateException("deactivated or restarted while connecting");
                }
                connection = c;
                sessions.clear();
                sessions.addAll(opened);
            }
        } catch (Exception e) {
            for (InboundSession s : opened) {
                s.neverRan();
            }
            close(c);
            throw e;
        }
        LOG.info("{}: delivering from {} with {} session(s){}", name, target.describe(), opened.size(),
                transacted ? ", each delivery an XA branch of the container's transaction" : "");
        for (InboundSession s : opened) {
            try {
                schedule(s, "delivering");
            } catch (ResourceException e) {
                LOG.error("{}: the WorkManager refused a delivering session", name, e);
                s.neverRan();
            }
        }
    }

    private static MessageConsumer consumer(Session s, ActivationTarget t) throws JMSException {
        if (!t.topic()) {
            return s.createConsumer(t.destination(), t.selector());
        }
        Topic topic = (Topic) t.destination();
        if (t.shared()) {
            return t.durable() ? s.createSharedDurableConsumer(topic, t.subscriptionName(), t.selector())
                    : s.createSharedConsumer(topic, t.subscriptionName(), t.selector());
        }
        return t.durable() ? s.createDurableConsumer(topic, t.subscriptionName(), t.selector(), false)
                : s.createConsumer(topic, t.selector());
    }

    private boolean supportsHints() {
        try {
            return bootstrap.isContextSupported(HintsContext.class);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void schedule(Work work, String what) throws ResourceException {
        WorkManager wm = bootstrap.getWorkManager();
        try {
            wm.scheduleWork(work, WorkManager.INDEFINITE, null, new WorkAdapter() {
                @Override
                public void workRejected(WorkEvent e) {
                    LOG.error("{}: the WorkManager rejected the work of {}: {}", name, what,
                            e.getException() == null ? "" : e.getException().toString());
                    if (work instanceof InboundSession s) {
                        s.neverRan();
                    }
                }
            });
        } catch (WorkException e) {
            throw new ResourceException(name + ": the WorkManager refused the work of " + what, e);
        }
    }

    // ------------------------------------------------------------------------------------------------ failure

    /**
     * The provider gave up on the connection (a broker gone for longer than {@code reconnect}): start over, on the
     * WorkManager (this runs on the provider's timer thread, which must not wait for deliveries).
     */
    private void lost(JMSException e) {
        int next;
        synchronized (lock) {
            if (stopped || connection == null) {
                return;
            }
            next = ++generation;
        }
        LOG.warn("{}: the connection was lost; connecting again: {}", name, e.getMessage());
        try {
            schedule(new Work() {
                @Override
                public void run() {
                    tearDown();
                    new Setup(next).run();
                }

                @Override
                public void release() {
                    synchronized (lock) {
                        lock.notifyAll();
                    }
                }
            }, "setting up again");
        } catch (ResourceException re) {
            LOG.error("{}: cannot set up again", name, re);
        }
    }

    // ------------------------------------------------------------------------------------------------ stop

    /** Deactivation: no new messages, prefetched ones back at once, deliveries in progress finish, then close. */
    void stop() {
        synchronized (lock) {
            stopped = true;
            lock.notifyAll();
        }
        tearDown();
    }

    private void tearDown() {
        XAConnection c;
        List<InboundSession> running;
        synchronized (lock) {
            c = connection;
            connection = null;
            running = new ArrayList<>(sessions);
            sessions.clear();
        }
        for (InboundSession s : running) {
            s.stop();
        }
        long deadline = System.currentTimeMillis() + DRAIN_MILLIS;
        for (InboundSession s : running) {
            try {
                if (!s.awaitDone(Math.max(0, deadline - System.currentTimeMillis()))) {
                    LOG.warn("{}: a delivery did not finish within {} ms; closing its connection anyway", name,
                            DRAIN_MILLIS);
                    break;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        close(c);
    }

    private void close(XAConnection c) {
        if (c != null) {
            try {
                c.close();
            } catch (JMSException | RuntimeException e) {
                LOG.debug("{}: closing the connection failed", name, e);
            }
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
