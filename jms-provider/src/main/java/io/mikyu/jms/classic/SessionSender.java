package io.mikyu.jms.classic;

import io.mikyu.engine.Durability;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.message.EncodedMessage;
import io.mikyu.jms.metrics.JmsMetrics;
import jakarta.jms.CompletionListener;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * How one session's sends reach the engine: into its transaction, as a transient task, through its
 * {@link NonPersistentPipeline}, or written at once; and its thread for asynchronous sends. Apart from the session
 * because the choice of path, and the two threads it may start, are a concern of their own.
 */
final class SessionSender {

    private static final Logger LOG = LoggerFactory.getLogger(SessionSender.class);
    /** Larger NON_PERSISTENT messages are written at once, so an error (too large, disk full) reaches send(). */
    private static final int PIPELINED_MAX_BYTES = 256 * 1024;

    private final MikyuSession session;
    private final MikyuConnection connection;
    private ExecutorService asyncSender;
    private NonPersistentPipeline pipeline;

    SessionSender(MikyuSession session) {
        this.session = session;
        this.connection = session.connection;
    }

    /**
     * Sends (or, transacted, buffers) an encoded message; the producer has set every header. NON_PERSISTENT
     * messages go through the session's {@link NonPersistentPipeline} unless {@code direct}. {@code body}, the upload
     * of the message's large body (or null), is closed once the record naming it is written or given up, or, in a
     * transaction, once the transaction is decided.
     */
    void send(MikyuDestination d, EncodedMessage m, boolean persistent, boolean direct, LargeMessages.Upload body)
            throws JMSException {
        TransactionWork w;
        try {
            session.checkOpen();
            w = session.currentWork();
        } catch (JMSException | RuntimeException e) {
            closeUpload(body);
            throw e;
        }
        if (w != null) {
            w.send(d, m, body);
            return;
        }
        try {
            send(d, m, persistent, direct);
        } finally {
            closeUpload(body);
        }
    }

    private static void closeUpload(LargeMessages.Upload body) {
        if (body != null) {
            body.close();
        }
    }

    private void send(MikyuDestination d, EncodedMessage m, boolean persistent, boolean direct) throws JMSException {
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
            pipeline = new NonPersistentPipeline(session);
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

    /** As {@link #flushPipeline()}, but not for a write waiting for the store to free memory. */
    void flushPipelineUnlessWaitingForMemory() {
        NonPersistentPipeline p;
        synchronized (this) {
            p = pipeline;
        }
        if (p != null) {
            p.flushUnlessWaitingForMemory();
        }
    }

    /** Runs an asynchronous send on the session's sender thread (sends complete in the order they were made). */
    void sendAsync(Runnable send) throws JMSException {
        session.checkOpen();
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
        CallbackThread.Scope before = CallbackThread.enter(connection, session, true);
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

    /** The session closes: what its pipeline queued is written, then its thread ends. */
    void closePipeline() {
        NonPersistentPipeline queued;
        synchronized (this) {
            queued = pipeline;
        }
        if (queued != null) {
            queued.close();
        }
    }

    /** The session closes: the asynchronous sends made so far complete (their listeners called) first. */
    void awaitAsyncSends() {
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
    }
}
