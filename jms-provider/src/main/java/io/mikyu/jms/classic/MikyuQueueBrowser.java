package io.mikyu.jms.classic;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.TaskQueue;
import io.mikyu.jms.MikyuQueue;
import io.mikyu.selector.Selector;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * A browser: each enumeration is a snapshot of the messages ready on the queue (in delivery order, selector
 * applied by the engine), read without leasing them. Messages a consumer holds are not shown.
 */
public final class MikyuQueueBrowser implements QueueBrowser {

    /** The most one enumeration shows. */
    static final int MAX_BROWSE = 100_000;

    private final MikyuSession session;
    private final MikyuQueue queue;
    private final Selector selector;
    private final TaskQueue tasks;
    private volatile boolean closed;

    MikyuQueueBrowser(MikyuSession session, MikyuQueue queue, Selector selector, TaskQueue tasks) {
        this.session = session;
        this.queue = queue;
        this.selector = selector;
        this.tasks = tasks;
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return queue;
    }

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return selector.isMatchAll() ? null : selector.source();
    }

    @Override
    public Enumeration<Message> getEnumeration() throws JMSException {
        checkOpen();
        session.connection.flushNonPersistent();
        List<LeasedTask> snapshot;
        try {
            snapshot = tasks.browse(MAX_BROWSE, selector.isMatchAll() ? null : selector);
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
        List<Message> messages = new ArrayList<>(snapshot.size());
        for (LeasedTask t : snapshot) {
            // Attempt 0: a browsed message was not delivered by browsing; JMSRedelivered says if it was before.
            messages.add(LargeMessages.decode(session, t.headers(), t.payload(),
                    t.attempt() > 0 ? t.attempt() + 1 : 0, queue));
        }
        return Collections.enumeration(messages);
    }

    @Override
    public void close() throws JMSException {
        markClosed();
        session.consumers.browserClosed(this);
    }

    void markClosed() {
        closed = true;
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("the browser is closed");
        }
        session.checkOpen();
    }
}
