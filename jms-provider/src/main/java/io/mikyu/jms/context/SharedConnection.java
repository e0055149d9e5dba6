package io.mikyu.jms.context;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSException;

/** The connection and the number of open contexts using it; the last to close closes the connection. */
final class SharedConnection {

    final Connection connection;
    private int contexts = 1;

    SharedConnection(Connection connection) {
        this.connection = connection;
    }

    synchronized void retain() {
        if (contexts == 0) {
            throw new IllegalStateRuntimeException("the connection is closed");
        }
        contexts++;
    }

    void release() throws JMSException {
        boolean last;
        synchronized (this) {
            last = --contexts == 0;
        }
        if (last) {
            connection.close();
        }
    }
}
