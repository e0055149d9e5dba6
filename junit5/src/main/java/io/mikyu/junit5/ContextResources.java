package io.mikyu.junit5;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The JMS objects made for one test (or, for {@code @BeforeAll} parameters, one class): one {@link JMSContext} and one
 * started {@link Connection}, each made when first asked for and given to every field and parameter that asks
 * again, closed together, newest first, when the test ends.
 */
final class ContextResources implements AutoCloseable {

    private final Deque<AutoCloseable> toClose = new ArrayDeque<>();
    private JMSContext context;
    private Connection connection;
    private boolean closed;

    synchronized JMSContext jmsContext(TemporaryStore store) {
        checkOpen();
        if (context == null) {
            context = store.connectionFactory().createContext();
            toClose.push(context);
        }
        return context;
    }

    synchronized Connection connection(TemporaryStore store) {
        checkOpen();
        if (connection == null) {
            try {
                Connection c = store.connectionFactory().createConnection();
                toClose.push(c);
                c.start();
                connection = c;
            } catch (JMSException e) {
                throw new IllegalStateException("cannot connect to " + store.url() + ": " + e.getMessage(), e);
            }
        }
        return connection;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the test is over: its JMS objects are closed");
        }
    }

    @Override
    public synchronized void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        Exception failure = null;
        while (!toClose.isEmpty()) {
            try {
                toClose.pop().close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
