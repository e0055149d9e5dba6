package io.mikyu.jca.outbound;

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
import jakarta.resource.Referenceable;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionManager;

import javax.naming.Reference;
import java.io.Serializable;

/**
 * The {@link ConnectionFactory} applications look up (also a {@link QueueConnectionFactory} and
 * {@link TopicConnectionFactory}): every {@code createConnection} and {@code createContext} asks the container's
 * connection manager for a pooled connection, enlisted in the caller's JTA transaction by the container.
 * {@code createConnection(user, password)} and {@code createContext(user, password)} sign on as that user
 * (application-managed sign-on); otherwise the container's (a Subject) or the configured user applies.
 */
public final class MikyuPooledConnectionFactory implements ConnectionFactory, QueueConnectionFactory,
        TopicConnectionFactory, Referenceable, Serializable {

    private static final long serialVersionUID = 1L;

    private final MikyuManagedConnectionFactory factory;
    private final ConnectionManager manager;
    private Reference reference;

    MikyuPooledConnectionFactory(MikyuManagedConnectionFactory factory, ConnectionManager manager) {
        this.factory = factory;
        this.manager = manager;
    }

    /** The connection definition behind this factory (its settings are an activation's with this lookup). */
    public MikyuManagedConnectionFactory managedConnectionFactory() {
        return factory;
    }

    // ------------------------------------------------------------------------------------------------ classic

    @Override
    public Connection createConnection() throws JMSException {
        return allocate(null, null);
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        return allocate(userName, password);
    }

    @Override
    public QueueConnection createQueueConnection() throws JMSException {
        return allocate(null, null);
    }

    @Override
    public QueueConnection createQueueConnection(String userName, String password) throws JMSException {
        return allocate(userName, password);
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return allocate(null, null);
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        return allocate(userName, password);
    }

    private ConnectionHandle allocate(String user, String password) throws JMSException {
        Object handle;
        try {
            handle = manager.allocateConnection(factory, new MikyuConnectionRequestInfo(user, password));
        } catch (jakarta.resource.spi.SecurityException e) {
            JMSSecurityException j = new JMSSecurityException(e.getMessage());
            j.initCause(e);
            throw j;
        } catch (ResourceException e) {
            JMSException j = new JMSException("cannot get a mikyu connection: " + e.getMessage());
            j.initCause(e);
            j.setLinkedException(e);
            throw j;
        }
        if (!(handle instanceof ConnectionHandle h)) {
            throw new JMSException("the connection manager returned " + handle + ", not a mikyu connection");
        }
        return h;
    }

    // ------------------------------------------------------------------------------------------------ simplified

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

    /**
     * Inside a JTA transaction the mode is ignored; outside one CLIENT_ACKNOWLEDGE and SESSION_TRANSACTED mean
     * AUTO_ACKNOWLEDGE (Jakarta Messaging 3.1 §12.3, which requires it of contexts).
     */
    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        MikyuJMSContext.checkSessionMode(sessionMode);
        ConnectionHandle handle;
        try {
            handle = allocate(userName, password);
        } catch (JMSSecurityException e) {
            throw new JMSSecurityRuntimeException(e.getMessage(), e.getErrorCode(), e);
        } catch (JMSException e) {
            throw new JMSRuntimeException(e.getMessage(), e.getErrorCode(), e);
        }
        handle.forContext();
        int mode = sessionMode == JMSContext.DUPS_OK_ACKNOWLEDGE ? JMSContext.DUPS_OK_ACKNOWLEDGE
                : JMSContext.AUTO_ACKNOWLEDGE;
        return new ManagedJMSContext(MikyuJMSContext.create(handle, mode), handle);
    }

    // ------------------------------------------------------------------------------------------------ JNDI

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    @Override
    public Reference getReference() {
        return reference;
    }

    @Override
    public String toString() {
        return "MikyuPooledConnectionFactory[" + factory + "]";
    }
}
