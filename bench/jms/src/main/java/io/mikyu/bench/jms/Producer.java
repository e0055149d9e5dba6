package io.mikyu.bench.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One producer thread on a connection and session of its own: sends {@code BytesMessage}s of a fixed body, each
 * stamped ({@link Stamp}) with its sequence number, until the measured window ends (or, for a backlog, until it sent
 * its quota). In a transacted case it commits
 * every {@link Case#transactionBatch} messages (and the rest at the end); only committed messages count as sent.
 */
final class Producer implements Runnable {

    final int id;
    final Thread thread;
    private final ConnectionFactory factory;
    private final Destination destination;
    private final Case workload;
    private final byte[] body;
    private final long runId;
    private final RunState state;
    private final CountDownLatch go;
    /** Messages to send before stopping, or 0 to send until the window ends. */
    private final long quota;

    /** Messages sent so far (committed or not), for the run to watch the backlog. */
    final AtomicLong sentSoFar = new AtomicLong();
    /** At a fixed rate: how far behind its schedule the last send started (ns). */
    volatile long behindSchedule;
    /** Committed messages: read after the thread ended. */
    long committed;
    /** Messages stamped inside the measured window: read after the thread ended. */
    long sentInWindow;

    Producer(int id, ConnectionFactory factory, Destination destination, Case workload, byte[] body, long runId,
             RunState state, CountDownLatch go) {
        this(id, factory, destination, workload, body, runId, state, go, 0);
    }

    Producer(int id, ConnectionFactory factory, Destination destination, Case workload, byte[] body, long runId,
             RunState state, CountDownLatch go, long quota) {
        this.quota = quota;
        this.id = id;
        this.factory = factory;
        this.destination = destination;
        this.workload = workload;
        this.body = body;
        this.runId = runId;
        this.state = state;
        this.go = go;
        this.thread = new Thread(this, "bench-producer-" + id);
    }

    @Override
    public void run() {
        try (Connection connection = factory.createConnection()) {
            connection.setExceptionListener(state::fail);
            boolean transacted = workload.transacted();
            Session session = transacted
                    ? connection.createSession(true, Session.SESSION_TRANSACTED)
                    : connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(destination);
            producer.setDeliveryMode(workload.persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
            long interval = workload.ratePerProducer > 0 ? 1_000_000_000L / workload.ratePerProducer : 0;
            go.await();
            long scheduleStart = System.nanoTime();
            long seq = 0;
            int inTransaction = 0;
            while (!state.failed()) {
                long stamp = System.nanoTime();
                if (interval > 0) {
                    long due = scheduleStart + seq * interval;
                    behindSchedule = stamp - due;
                    RunState.waitUntil(due);
                    stamp = due;
                }
                long windowEnd = state.windowEnd();
                if (quota > 0 ? seq == quota : stamp >= windowEnd) {
                    break;
                }
                BytesMessage m = session.createBytesMessage();
                m.writeBytes(body);
                m.setLongProperty(Stamp.RUN, runId);
                m.setIntProperty(Stamp.PRODUCER, id);
                m.setLongProperty(Stamp.SEQ, seq);
                m.setLongProperty(Stamp.SENT_AT, stamp);
                if (workload.groups() > 0) {
                    m.setStringProperty("JMSXGroupID", Stamp.group(id, seq, workload));
                }
                producer.send(m);
                seq++;
                sentSoFar.lazySet(seq);
                if (stamp >= state.windowStart()) {
                    sentInWindow++;
                }
                if (transacted && ++inTransaction == workload.transactionBatch) {
                    session.commit();
                    inTransaction = 0;
                    committed = seq;
                } else if (!transacted) {
                    committed = seq;
                }
            }
            if (transacted && inTransaction > 0 && !state.failed()) {
                session.commit();
                committed = seq;
            }
        } catch (Throwable t) {
            state.fail(t);
        }
    }
}
