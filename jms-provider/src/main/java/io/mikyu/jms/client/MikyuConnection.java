package io.mikyu.jms.client;

import io.mikyu.jms.config.ProviderOptions;
import jakarta.jms.JMSException;

/** Placeholder while the connection is being written. */
public abstract class MikyuConnection implements jakarta.jms.QueueConnection, jakarta.jms.TopicConnection {

    public static MikyuConnection open(ProviderOptions options, String user, String password) throws JMSException {
        throw new JMSException("connections are not implemented yet");
    }
}
