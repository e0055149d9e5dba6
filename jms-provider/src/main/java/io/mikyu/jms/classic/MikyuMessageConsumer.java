package io.mikyu.jms.classic;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.TimeSource;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.context.ConditionalReceiver;
import io.mikyu.jms.delivery.Inbound;
import io.mikyu.jms.delivery.MessageSource;
import io.mikyu.jms.spi.AvailabilityAware;
import io.mikyu.selector.Selector;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.QueueReceiver;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A consumer: takes leased messages from its source in batches and hands them out one at a time. The batch
 * starts at one message and doubles while the source has more (up to the {@code prefetch} option), so a
 * consumer that reads a backlog pays one engine round trip per batch, and one that reads now and then leases
 * nothing it is not about to deliver.
 */
public final class MikyuMessageConsumer implements QueueReceiver, TopicSubscriber, ConditionalReceiver,
        AvailabilityAware {

    private static final Logger LOG = LoggerFactory.getLogger(MikyuMessageConsumer.class);

    private final MikyuSession session;
    private final MikyuDestination destination;
    private final Selector selector;
    private final boolean noLocal;
    private final MessageSource source;
    private final String subscription;
    private final ArrayDeque<Held> buffer = new ArrayDeque<>();
    private final int prefetch;
    private int batch = 1;
    private volatile MessageListener listener;
    private volatile boolean closed;

    MikyuMessageConsumer(MikyuSession session, MikyuDestination destination, Selector selector, boolean noLocal,
                         MessageSource source, String subscription) {
        this.session = session;
        this.destination = destination;
        this.selector = selector;
        this.noLocal = noLocal;
        this.source = source;
        this.subscription = subscription;
        this.prefetch = Math.max(1, session.connection.options.prefetch());
    }

    MikyuDestination destination() {
        return destination;
    }

    MikyuSession session() {
        return session;
    }

    /** The engine group of a topic subscription kept by the engine, or null. */
    String subscription() {
        return subscription;
    }

    MessageListener listener() {
        return listener;
    }

    boolean isClosed() {
        return closed;
    }

    // ------------------------------------------------------------------------------------------------ buffer

    /**
     * The next held message whose lease holds: buffered, or fetched waiting up to {@code wait}; null if none came.
     * A message whose lease ended is skipped (see {@link #stillHeld}).
     */
    Held take(Duration wait) throws InterruptedException {
        while (true) {
            Held h;
            synchronized (this) {
                h = buffer.poll();
                if (closed) {
                    return h;
                }
            }
            if (h == null) {
                break;
            }
            if (stillHeld(h)) {
                return h;
            }
        }
        // Automatic acks are not written before each fetch: a consumer taking one message per fetch would wait
        // for one ack write (over the network: a round trip) per message. They go in batches (see ackSoon), except
        // where the fetch itself would wait for them (beforeFetch).
        session.acks.beforeFetch(source);
        int max = batch;
        List<Inbound> fetched;
        try {
            fetched = source.fetch(max, session.connection.lease(), wait);
        } catch (RuntimeException e) {
            if (closed || session.isClosed()) {
                return null;
            }
            throw e;
        }
        batch = fetched.size() >= max ? Math.min(prefetch, max * 2) : Math.max(1, fetched.size());
        if (fetched.isEmpty()) {
            return null;
        }
        List<Held> held = new ArrayList<>(fetched.size());
        for (Inbound in : fetched) {
            Held h = new Held(source, in, this);
            held.add(h);
            session.leases.leased(h);
        }
        synchronized (this) {
            if (closed) {
                giveBack(held);
                return null;
            }
            buffer.addAll(held.subList(1, held.size()));
        }
        Held first = held.get(0);
        return stillHeld(first) ? first : null;
    }

    /**
     * Whether {@code h} may be handed to the application: only while its lease holds. Once a lease ended the store
     * hands the message out again, with a higher delivery count, maybe to another consumer first; this copy, handed
     * out after that one, would carry a lower count (or none, unflagged) while both are out. A lease that may have
     * ended without this side noticing (a broker away longer than the lease, so the renewals failed; an item that
     * waited long in a stream's buffer) is confirmed with the store first, by renewing it. A message whose lease
     * ended, or cannot be confirmed, is dropped here: it is the store's again, and comes back flagged.
     */
    private boolean stillHeld(Held h) {
        if (!h.ended) {
            long leaseMillis = session.connection.lease().toMillis();
            if (!h.leaseInDoubt(TimeSource.system().steadyMillis(), leaseMillis)) {
                return true;
            }
            try {
                h.leaseUntil = source.extend(h.token(), Duration.ofMillis(leaseMillis));
                return true;
            } catch (StaleLeaseException e) {
                LOG.debug("a buffered message of {} is not handed out: its lease ended ({})", destination,
                        e.getMessage());
            } catch (RuntimeException e) {
                LOG.debug("a buffered message of {} is not handed out: its lease could not be confirmed, and is"
                        + " left to end", destination, e);
            }
        }
        session.leases.released(h);
        return false;
    }

    /** A renewal found {@code h}'s lease ended: it leaves the buffer (if it is still there), never handed out. */
    synchronized void forget(Held h) {
        h.ended = true;
        buffer.remove(h);
    }

    /** A message taken but not delivered (the connection stopped meanwhile): first again next time. */
    synchronized void putBack(Held h) {
        if (closed) {
            giveBack(List.of(h));
        } else {
            buffer.addFirst(h);
        }
    }

    /** Gives every buffered message back to the engine, as never delivered. */
    void returnBuffered() {
        List<Held> all;
        synchronized (this) {
            all = new ArrayList<>(buffer);
            buffer.clear();
        }
        giveBack(all);
    }

    private void giveBack(List<Held> held) {
        if (held.isEmpty()) {
            return;
        }
        List<LeaseToken> tokens = new ArrayList<>(held.size());
        for (Held h : held) {
            session.leases.released(h);
            tokens.add(h.token());
        }
        try {
            source.returnUndelivered(tokens);
        } catch (RuntimeException e) {
            LOG.debug("returning {} buffered messages of {} failed; their leases will end", tokens.size(),
                    destination, e);
        }
    }

    // ------------------------------------------------------------------------------------------------ SPI

    @Override
    public boolean awaitMessage(Duration timeout) throws JMSException {
        checkOpen();
        synchronized (this) {
            if (!buffer.isEmpty()) {
                return true;
            }
        }
        Held h;
        try {
            h = take(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
        if (h == null) {
            return false;
        }
        putBack(h); // first in the buffer: the next receive delivers it (in whatever transaction is current then)
        return !closed;
    }

    @Override
    public void returnPrefetched() {
        returnBuffered();
    }

    // ------------------------------------------------------------------------------------------------ JMS

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return selector.isMatchAll() ? null : selector.source();
    }

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return listener;
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        this.listener = listener;
        if (listener != null) {
            session.delivery.listenerSet();
        }
    }

    @Override
    public Message receive() throws JMSException {
        checkOpen();
        return session.delivery.receive(this, 0);
    }

    @Override
    public Message receive(long timeout) throws JMSException {
        checkOpen();
        return session.delivery.receive(this, timeout <= 0 ? 0 : timeout);
    }

    @Override
    public Message receive(long timeout, java.util.function.Predicate<? super Message> accept) throws JMSException {
        checkOpen();
        return session.delivery.receive(this, timeout == 0 ? 0 : timeout < 0 ? -1 : timeout, accept);
    }

    @Override
    public Message receiveNoWait() throws JMSException {
        checkOpen();
        return session.delivery.receive(this, -1);
    }

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        if (!session.delivery.inDelivery() && session.delivery.lock().tryLock()) {
            try {
                closeQuietly();
            } finally {
                session.delivery.lock().unlock();
            }
            return;
        }
        if (session.delivery.inDelivery()) {
            closeQuietly(); // from this session's own listener: allowed, and onMessage then completes normally
            return;
        }
        session.delivery.lock().lock(); // a delivery to this session is under way: close after it
        try {
            closeQuietly();
        } finally {
            session.delivery.lock().unlock();
        }
    }

    void closeQuietly() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        listener = null;
        session.acks.flush();
        returnBuffered();
        try {
            source.close();
        } catch (RuntimeException e) {
            LOG.debug("closing the source of {} failed", destination, e);
        }
        session.consumers.consumerClosed(this);
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("the consumer is closed");
        }
        session.checkOpen();
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        if (!(destination instanceof Queue q)) {
            throw new IllegalStateException("this consumer reads topic " + destination.name());
        }
        return q;
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        if (!(destination instanceof Topic t)) {
            throw new IllegalStateException("this consumer reads queue " + destination.name());
        }
        return t;
    }

    @Override
    public boolean getNoLocal() throws JMSException {
        checkOpen();
        return noLocal;
    }
}
