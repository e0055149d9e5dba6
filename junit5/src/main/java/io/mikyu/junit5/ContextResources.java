package io.mikyu.junit5;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;

/**
 * The JMS objects made for one test (or, for {@code @BeforeAll} parameters, one class): one {@link JMSContext} and one
 * started {@link Connection}, each made when first asked for and given to every field and parameter that asks
 * again, both closed when the test ends.
 */
final class ContextResources implements AutoCloseable {

    private JMSContext context;
    private Connection connection;
    private boolean closed;

    synchronized JMSContext jmsContext(TemporaryStore store) {
        checkOpen();
        if (context == null) {
            context = store.connectionFactory().createContext();
        }
        return context;
    }

    synchronized Connection connection(TemporaryStore store) {
        checkOpen();
        if (connection == null) {
            try {
                connection = store.connectionFactory().createConnection();
                connection.start();
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
    public synchronized void close() throws JMSException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (context != null) {
                context.close();
            }
        } finally {
            if (connection != null) {
                connection.close();
            }
        }
    }
}
