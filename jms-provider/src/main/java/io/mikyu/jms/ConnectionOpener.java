package io.mikyu.jms;

import io.mikyu.jms.config.ProviderOptions;
import jakarta.jms.JMSException;
import jakarta.jms.QueueConnection;
import jakarta.jms.TopicConnection;
import jakarta.jms.XAQueueConnection;
import jakarta.jms.XATopicConnection;

/**
 * How the connection factories open the provider's connections. The connections ({@code io.mikyu.jms.classic}) use
 * this package's destinations; were the factories to name them in turn, the two packages would depend on each
 * other. So the classic package implements this interface and registers it in
 * {@code META-INF/services/io.mikyu.jms.ConnectionOpener}, and the factories find it there. Not for applications.
 */
public interface ConnectionOpener {

    /** Every connection of the provider serves both messaging domains. */
    interface AnyDomainConnection extends QueueConnection, TopicConnection {
    }

    /** Every XA connection of the provider serves both messaging domains. */
    interface AnyDomainXAConnection extends AnyDomainConnection, XAQueueConnection, XATopicConnection {
    }

    /**
     * Authenticates and opens (or shares) the engine of the URL's directory, or dials (or shares) the URL's broker,
     * which checks {@code user} and {@code password} (else the URL's or the config file's) itself.
     */
    AnyDomainConnection open(ProviderOptions options, String user, String password) throws JMSException;

    /** As {@link #open(ProviderOptions, String, String)}, an XA connection. */
    AnyDomainXAConnection openXA(ProviderOptions options, String user, String password) throws JMSException;
}
