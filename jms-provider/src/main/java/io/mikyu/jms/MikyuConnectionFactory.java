package io.mikyu.jms;

import io.mikyu.jms.config.ProviderOptions;
import io.mikyu.jms.context.MikyuJMSContext;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.QueueConnection;
import jakarta.jms.QueueConnectionFactory;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;

import javax.naming.NamingException;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.StringRefAddr;
import java.io.Serializable;
import java.util.Objects;

/**
 * mikyu's JMS connection factory: {@code new MikyuConnectionFactory("vm://data")} for an engine in this JVM, or
 * {@code "tcp://host:7420"} / {@code "unix:///path/mikyu.sock"} for a {@code mikyu daemon} (with the
 * {@code io.mikyu:mikyu-client} artifact on the class path). Connections in one JVM to the same {@code vm://}
 * directory share one engine, and to the same broker URL one network connection, opened with the first connection
 * and closed with the last.
 * The URL's options are listed on {@link ProviderOptions}. Also a {@link QueueConnectionFactory} and a
 * {@link TopicConnectionFactory}; {@link Serializable} and {@link Referenceable} for JNDI.
 */
public class MikyuConnectionFactory implements ConnectionFactory, QueueConnectionFactory, TopicConnectionFactory,
        Serializable, Referenceable {

    private static final long serialVersionUID = 1L;
    /** The default URL: {@code ./data} under the working directory. */
    public static final String DEFAULT_URL = "vm://data";
    static final String URL_ADDRESS = "url";

    private final String url;
    private transient ProviderOptions options;

    public MikyuConnectionFactory() {
        this(DEFAULT_URL);
    }

    /** @throws IllegalArgumentException if the URL is not a valid mikyu URL */
    public MikyuConnectionFactory(String url) {
        this.url = Objects.requireNonNull(url, "url");
        this.options = ProviderOptions.parse(url);
    }

    public String getURL() {
        return url;
    }

    ProviderOptions options() {
        if (options == null) {
            options = ProviderOptions.parse(url);
        }
        return options;
    }

    @Override
    public Connection createConnection() throws JMSException {
        return ConnectionOpeners.get().open(options(), null, null);
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        return ConnectionOpeners.get().open(options(), userName, password);
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        return ConnectionOpeners.get().open(options(), null, null);
    }

    @Override
    public QueueConnection createQueueConnection(String userName, String password) throws JMSException {
        return ConnectionOpeners.get().open(options(), userName, password);
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return ConnectionOpeners.get().open(options(), null, null);
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        return ConnectionOpeners.get().open(options(), userName, password);
    }

    @Override
    public JMSContext createContext() {
        return createContext(null, null, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        return createContext(null, null, sessionMode);
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        return createContext(userName, password, JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        MikyuJMSContext.checkSessionMode(sessionMode);
        Connection connection;
        try {
            connection = ConnectionOpeners.get().open(options(), userName, password);
        } catch (JMSSecurityException e) {
            JMSSecurityRuntimeException re = new JMSSecurityRuntimeException(e.getMessage(), e.getErrorCode(), e);
            throw re;
        } catch (JMSException e) {
            throw new JMSRuntimeException(e.getMessage(), e.getErrorCode(), e);
        }
        return MikyuJMSContext.create(connection, sessionMode);
    }

    @Override
    public Reference getReference() throws NamingException {
        Reference ref = new Reference(getClass().getName(),
                ConnectionFactoryObjectFactory.class.getName(), null);
        ref.add(new StringRefAddr(URL_ADDRESS, url));
        return ref;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + io.mikyu.engine.Secrets.redact(url) + "]";
    }
}
