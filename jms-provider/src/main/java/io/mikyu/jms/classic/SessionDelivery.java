package io.mikyu.jms.classic;

import io.mikyu.engine.TimeSource;
import io.mikyu.jms.delivery.Inbound;
import io.mikyu.jms.message.MikyuMessage;
import io.mikyu.jms.metrics.JmsMetrics;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hands the messages one session's consumers hold to the application: the synchronous {@code receive}, and the
 * session's own delivery thread for message listeners (started with the first listener). One message at a time
 * under the delivery lock, which is how stop(), close() and recover() wait for a delivery under way. Apart from the
 * session because the session's other concerns (factories, sends, acknowledgement) never need the thread.
 */
final class SessionDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(SessionDelivery.class);
    private static final long SLICE_MILLIS = 100;

    private final MikyuSession session;
    private final MikyuConnection connection;
    private final List<MikyuMessageConsumer> consumers;
    /** Held while a message is being delivered, so stop() and close() can wait for delivery to pause. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Object wakeup = new Object();
    private volatile Thread deliveryThread;
    /** The message a listener is being given (auto-acknowledging modes): recover() inside onMessage redelivers it. */
    private Held inListener;

    SessionDelivery(MikyuSession session, List<MikyuMessageConsumer> consumers) {
        this.session = session;
        this.connection = session.connection;
        this.consumers = consumers;
    }

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
                if (c.isClosed() || session.isClosed()) {
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
                lock.lock();
                try {
                    if (c.isClosed() || session.isClosed() || !connection.isStarted()) {
                        c.putBack(h);
                        continue;
                    }
                    MikyuMessage m = open(c, h);
                    if (m == null) {
                        continue;
                    }
                    if (accept != null && !accept.test(m) && session.autoAck()) {
                        c.putBack(h);
                        return m;
                    }
                    delivered(h);
                    return m;
                } finally {
                    lock.unlock();
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
            m = LargeMessages.decode(session, in.headers(), in.payload(), in.attempt(), c.destination());
        } catch (JMSException | RuntimeException e) {
            LOG.warn("a message of {} cannot be decoded and is nacked (it will reach the dead-letter queue): {}",
                    c.destination(), e.toString());
            session.leases.settle(h, false, "undecodable: " + e);
            return null;
        }
        long expiration = m.getJMSExpiration();
        if (expiration > 0 && expiration <= System.currentTimeMillis()) {
            session.leases.settle(h, true, null); // expired while buffered: drop it
            return null;
        }
        m.setAcknowledger(session::acknowledgeFrom);
        JmsMetrics.GLOBAL.delivered(in.attempt() > 1);
        return m;
    }

    /** After a message was handed to the application (receive returned, or onMessage returned normally). */
    private void delivered(Held h) {
        TransactionWork w = session.currentWork();
        if (w != null) {
            session.consumedIn(w, h);
        } else if (session.autoAck()) {
            session.acks.ackSoon(h);
        } else {
            session.acks.delivered(h);
        }
    }

    /** The session's delivery thread: delivers to every consumer with a listener while the connection runs. */
    private void loop() {
        while (!session.isClosed()) {
            try {
                List<MikyuMessageConsumer> listening = new ArrayList<>();
                for (MikyuMessageConsumer c : consumers) {
                    if (c.listener() != null && !c.isClosed()) {
                        listening.add(c);
                    }
                }
                if (listening.isEmpty() || !connection.isStarted()) {
                    synchronized (wakeup) {
                        if (!session.isClosed()) {
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
                if (session.isClosed()) {
                    return;
                }
            } catch (RuntimeException e) {
                LOG.error("the delivery thread of a session of {} failed; it goes on", connection, e);
            }
        }
    }

    private void deliverToListener(MikyuMessageConsumer c, Held h) {
        lock.lock();
        try {
            MessageListener listener = c.listener();
            if (session.isClosed() || c.isClosed() || listener == null || !connection.isStarted()) {
                c.putBack(h);
                return;
            }
            MikyuMessage m = open(c, h);
            if (m == null) {
                return;
            }
            boolean auto = session.autoAck();
            if (auto) {
                inListener = h; // acked when onMessage returns, unless it recovers the session first
            } else {
                delivered(h); // part of the session's next acknowledge(), commit() or recover(), even inside onMessage
            }
            CallbackThread.Scope before = CallbackThread.enter(connection, session, false);
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
                    session.leases.settle(h, false, "the message listener threw");
                } else {
                    session.acks.ackSoon(h);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** A consumer got a listener: make sure the delivery thread runs. */
    void listenerSet() {
        synchronized (session) { // the monitor close() sets closed under: no thread starts after close
            if (deliveryThread == null && !session.isClosed()) {
                Thread t = new Thread(this::loop, "mikyu-jms-session-" + connection.id);
                t.setDaemon(true);
                deliveryThread = t;
                t.start();
            }
        }
        wake();
    }

    void wake() {
        synchronized (wakeup) {
            wakeup.notifyAll();
        }
    }

    /** Waits until no message is being delivered (the connection was stopped). */
    void awaitPaused() {
        if (lock.isHeldByCurrentThread()) {
            return;
        }
        lock.lock();
        lock.unlock();
    }

    ReentrantLock lock() {
        return lock;
    }

    boolean inDelivery() {
        return lock.isHeldByCurrentThread();
    }

    /** recover() from inside onMessage (auto-acknowledging modes): the message being delivered comes again too. */
    void redeliverInListener() {
        if (inListener != null && lock.isHeldByCurrentThread()) {
            session.leases.settle(inListener, false, "recovered");
            inListener = null;
        }
    }

    /** The session closes: waits for its delivery thread to end (it ends when it sees the session closed). */
    void awaitThreadEnd() {
        Thread t = deliveryThread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
