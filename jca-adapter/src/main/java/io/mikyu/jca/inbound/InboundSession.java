package io.mikyu.jca.inbound;

import io.mikyu.jms.spi.AvailabilityAware;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.Session;
import jakarta.jms.XASession;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.HintsContext;
import jakarta.resource.spi.work.Work;
import jakarta.resource.spi.work.WorkContext;
import jakarta.resource.spi.work.WorkContextProvider;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One delivering session of an activation, run as long-running {@link Work} on the server's WorkManager: waits
 * until its consumer has a message (without taking it), then delivers it to a message endpoint.
 *
 * <p>Transacted endpoints ({@code isDeliveryTransacted}): the endpoint is made with the session's XAResource,
 * {@code beforeDelivery} has the container start its transaction and enlist it, and only then is the message
 * received, so it is consumed inside that branch; {@code afterDelivery} commits or rolls back, and a rollback
 * (an exception, {@code setRollbackOnly}) delivers the message again, flagged redelivered, until
 * {@code maxAttempts} sends it to the dead-letter queue. Other endpoints: the session acknowledges on the client's
 * word, after {@code onMessage} returns; a RuntimeException from it delivers the message again.
 */
final class InboundSession implements Work, WorkContextProvider {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(InboundSession.class);
    static final Method ON_MESSAGE;
    /**
     * How long one wait for a message lasts, so a stop is seen within it. Not interrupted instead: an interrupt
     * inside the embedded engine's file reads would close its channels.
     */
    private static final Duration POLL = Duration.ofMillis(500);
    /** How long to wait before trying again when the endpoint cannot take a message (the container's pool). */
    private static final long BACKOFF_MILLIS = 200;

    static {
        try {
            ON_MESSAGE = MessageListener.class.getMethod("onMessage", Message.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private enum State { NEW, WAITING, DELIVERING, DONE }

    private final String name;
    private final MessageEndpointFactory factory;
    private final Session session;
    private final MessageConsumer consumer;
    private final boolean transacted;
    private final TransactionSynchronizationRegistry transactions;
    private final boolean hints;
    private final CountDownLatch done = new CountDownLatch(1);
    private final Object lock = new Object();
    private State state = State.NEW;
    private boolean stopping;

    InboundSession(String name, MessageEndpointFactory factory, Session session, MessageConsumer consumer,
                   boolean transacted, TransactionSynchronizationRegistry transactions, boolean hints) {
        this.name = name;
        this.factory = factory;
        this.session = session;
        this.consumer = consumer;
        this.transacted = transacted;
        this.transactions = transactions;
        this.hints = hints;
    }

    // ------------------------------------------------------------------------------------------------ the loop

    @Override
    public void run() {
        try {
            AvailabilityAware aware = (AvailabilityAware) consumer;
            while (true) {
                synchronized (lock) {
                    if (stopping) {
                        break;
                    }
                    state = State.WAITING;
                }
                boolean ready;
                try {
                    ready = aware.awaitMessage(POLL);
                } catch (JMSException | RuntimeException e) {
                    if (!isStopping()) {
                        LOG.warn("{}: waiting for a message failed; this session stops: {}", name, e.toString());
                    }
                    break;
                }
                synchronized (lock) {
                    if (stopping) {
                        break;
                    }
                    if (!ready) {
                        continue;
                    }
                    state = State.DELIVERING;
                }
                deliverOne();
            }
        } finally {
            synchronized (lock) {
                state = State.DONE;
            }
            closeQuietly();
            done.countDown();
        }
    }

    /** Delivers the message the consumer holds, as one endpoint call, in the endpoint's transaction if any. */
    private void deliverOne() {
        MessageEndpoint endpoint;
        try {
            endpoint = factory.createEndpoint(transacted ? ((XASession) session).getXAResource() : null);
        } catch (UnavailableException e) {
            LOG.debug("{}: no endpoint available now; the message waits", name, e);
            pause(BACKOFF_MILLIS);
            return;
        } catch (RuntimeException e) {
            LOG.warn("{}: the container could not make an endpoint; the message waits", name, e);
            pause(BACKOFF_MILLIS);
            return;
        }
        boolean before = false;
        try {
            endpoint.beforeDelivery(ON_MESSAGE); // a transacted endpoint's branch starts: the receive is part of it
            before = true;
            Message message = isStopping() ? null : consumer.receiveNoWait();
            if (message != null) {
                onMessage(endpoint, message);
            }
        } catch (NoSuchMethodException | ResourceException | JMSException | RuntimeException e) {
            LOG.warn("{}: delivery failed{}", name, before ? "" : "; the message waits", e);
            if (!before) {
                pause(BACKOFF_MILLIS);
            }
        } finally {
            if (before) {
                try {
                    endpoint.afterDelivery(); // commits, or rolls back (the message comes again)
                } catch (ResourceException | RuntimeException e) {
                    LOG.warn("{}: completing the delivery's transaction failed; the message will be delivered "
                            + "again unless it committed", name, e);
                }
            }
            endpoint.release();
        }
    }

    private void onMessage(MessageEndpoint endpoint, Message message) throws JMSException {
        try {
            ((MessageListener) endpoint).onMessage(message);
        } catch (RuntimeException e) {
            LOG.warn("{}: the endpoint threw; the message will be delivered again (dead-lettered after "
                    + "maxAttempts): {}", name, e.toString());
            if (transacted) {
                rollbackOnly();
            } else {
                session.recover(); // the message comes again, flagged redelivered, its attempt counted
            }
            return;
        }
        if (!transacted) {
            message.acknowledge(); // CLIENT_ACKNOWLEDGE session: exactly this message
        }
    }

    /** The container normally does this itself on a system exception; here it cannot forget to. */
    private void rollbackOnly() {
        if (transactions == null) {
            return;
        }
        try {
            if (transactions.getTransactionStatus() == Status.STATUS_ACTIVE) {
                transactions.setRollbackOnly();
            }
        } catch (RuntimeException e) {
            LOG.debug("{}: marking the transaction rollback-only failed", name, e);
        }
    }

    // ------------------------------------------------------------------------------------------------ stopping

    /**
     * Stops taking messages: a waiting session stops within its wait (its consumer, closing, gives back what it
     * fetched ahead); a delivering one gives back its prefetched messages now and stops after the delivery.
     */
    void stop() {
        synchronized (lock) {
            stopping = true;
            if (state == State.DELIVERING) {
                ((AvailabilityAware) consumer).returnPrefetched();
            }
            lock.notifyAll();
        }
    }

    /** The WorkManager never ran this session (rejected): what it holds is closed here. */
    void neverRan() {
        synchronized (lock) {
            stopping = true;
        }
        closeQuietly();
        done.countDown();
    }

    boolean awaitDone(long millis) throws InterruptedException {
        return done.await(millis, TimeUnit.MILLISECONDS);
    }

    /** The WorkManager asks the work to finish (server shutdown). */
    @Override
    public void release() {
        stop();
    }

    private boolean isStopping() {
        synchronized (lock) {
            return stopping;
        }
    }

    private void pause(long millis) {
        synchronized (lock) {
            if (stopping) {
                return;
            }
            try {
                lock.wait(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void closeQuietly() {
        try {
            consumer.close(); // gives back what it fetched ahead
        } catch (JMSException | RuntimeException e) {
            LOG.debug("{}: closing the consumer failed", name, e);
        }
        try {
            session.close();
        } catch (JMSException | RuntimeException e) {
            LOG.debug("{}: closing the session failed", name, e);
        }
    }

    @Override
    public List<WorkContext> getWorkContexts() {
        if (!hints) {
            return List.of();
        }
        HintsContext h = new HintsContext();
        h.setName(name);
        h.setDescription("mikyu message-driven bean delivery");
        h.setHint(HintsContext.LONGRUNNING_HINT, Boolean.TRUE);
        return List.of(h);
    }

    @Override
    public String toString() {
        return name;
    }
}
