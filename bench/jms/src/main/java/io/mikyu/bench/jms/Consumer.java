package io.mikyu.bench.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import java.util.concurrent.CountDownLatch;

/**
 * One consumer thread (on a topic: one non-durable subscriber) on a connection and session of its own, receiving
 * until the run stops it and recording every message in its {@link Tally}. AUTO_ACKNOWLEDGE, or in a transacted case
 * a commit every {@link Case#transactionBatch} messages and whenever the destination runs dry.
 */
final class Consumer implements Runnable {

    private static final long RECEIVE_TIMEOUT_MS = 100;

    final Thread thread;
    final Tally tally;
    private final ConnectionFactory factory;
    private final Destination destination;
    private final Case workload;
    private final int bodySize;
    private final long runId;
    private final RunState state;
    private final CountDownLatch subscribed;

    Consumer(int id, ConnectionFactory factory, Destination destination, Case workload, int bodySize, long runId,
             RunState state, CountDownLatch subscribed) {
        this.factory = factory;
        this.destination = destination;
        this.workload = workload;
        this.bodySize = bodySize;
        this.runId = runId;
        this.state = state;
        this.subscribed = subscribed;
        this.tally = new Tally(workload.producers);
        this.thread = new Thread(this, "bench-consumer-" + id);
    }

    @Override
    public void run() {
        boolean counted = false;
        try (Connection connection = factory.createConnection()) {
            connection.setExceptionListener(state::fail);
            boolean transacted = workload.transacted();
            Session session = transacted
                    ? connection.createSession(true, Session.SESSION_TRANSACTED)
                    : connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(destination);
            connection.start();
            subscribed.countDown();
            counted = true;
            byte[] buffer = new byte[bodySize + 1];
            int uncommitted = 0;
            while (!state.consumersStopped() && !state.failed()) {
                Message m = consumer.receive(RECEIVE_TIMEOUT_MS);
                if (m == null) {
                    if (uncommitted > 0) {
                        session.commit();
                        uncommitted = 0;
                    }
                    continue;
                }
                record(m, buffer);
                if (transacted && ++uncommitted == workload.transactionBatch) {
                    session.commit();
                    uncommitted = 0;
                }
            }
            if (uncommitted > 0 && !state.failed()) {
                session.commit();
            }
        } catch (Throwable t) {
            state.fail(t);
        } finally {
            if (!counted) {
                subscribed.countDown();
            }
        }
    }

    /** The receive time is taken once the body is read: a provider may fetch a large body only then. */
    private void record(Message m, byte[] buffer) throws JMSException {
        if (!m.propertyExists(Stamp.RUN) || m.getLongProperty(Stamp.RUN) != runId) {
            tally.foreign++;
            return;
        }
        if (!(m instanceof BytesMessage bytes) || Math.max(bytes.readBytes(buffer), 0) != bodySize) {
            tally.malformed++;
            return;
        }
        long now = System.nanoTime();
        if (workload.groups() > 0) {
            tally.inGroup(m.getStringProperty("JMSXGroupID"), m.getLongProperty(Stamp.SEQ), m.getJMSRedelivered());
        }
        tally.record(m.getIntProperty(Stamp.PRODUCER), m.getLongProperty(Stamp.SEQ),
                m.getLongProperty(Stamp.SENT_AT), m.getJMSRedelivered(), now, state.windowStart(), state.windowEnd());
    }
}
