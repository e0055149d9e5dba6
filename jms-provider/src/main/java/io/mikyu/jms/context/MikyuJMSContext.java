package io.mikyu.jms.context;

import jakarta.jms.Connection;

/** Placeholder while the simplified API is being written. */
public abstract class MikyuJMSContext implements jakarta.jms.JMSContext {

    public static void checkSessionMode(int sessionMode) {
    }

    public static jakarta.jms.JMSContext create(Connection connection, int sessionMode) {
        throw new UnsupportedOperationException("not yet");
    }
}
