package io.mikyu.jca.outbound;

import io.mikyu.jca.settings.ConnectionSettings;
import io.mikyu.jms.MikyuXAConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.IllegalStateException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionMetaData;
import jakarta.resource.spi.SecurityException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.security.auth.Subject;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import java.io.PrintWriter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One pooled physical connection: an XA connection of the provider and its one XA session, shared by the handles
 * the container hands out for it ({@link ConnectionHandle}). Closing a handle gives the connection back to the
 * pool (CONNECTION_CLOSED) and leaves it open; {@link #cleanup()} makes it fresh for the next handle,
 * {@link #destroy()} closes it. When the provider reports the connection lost (its ExceptionListener), the pool
 * is told with CONNECTION_ERROR_OCCURRED and discards it.
 */
final class MikyuManagedConnection implements ManagedConnection, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MikyuManagedConnection.class);

    private final MikyuManagedConnectionFactory factory;
    private final ConnectionSettings settings;
    private final Credentials credentials;
    private final XAConnection physical;
    private final XASession session;
    private final TransactionState transactions;
    private final ContainerLocalTransaction localTransaction;
    private final List<ConnectionEventListener> listeners = new CopyOnWriteArrayList<>();
    private final Set<ConnectionHandle> handles = ConcurrentHashMap.newKeySet();
    private volatile boolean broken;
    private volatile boolean destroyed;
    private volatile boolean started;
    private volatile PrintWriter logWriter;

    private MikyuManagedConnection(MikyuManagedConnectionFactory factory, ConnectionSettings settings,
                                   Credentials credentials, XAConnection physical, XASession session)
            throws JMSException {
        this.factory = factory;
        this.settings = settings;
        this.credentials = credentials;
        this.physical = physical;
        this.session = session;
        this.transactions = new TransactionState(session.getXAResource());
        this.localTransaction = new ContainerLocalTransaction(transactions);
        physical.setExceptionListener(this::lost);
    }

    static MikyuManagedConnection open(MikyuManagedConnectionFactory factory, ConnectionSettings settings,
                                       Credentials credentials) throws ResourceException {
        XAConnection connection = null;
        try {
            connection = new MikyuXAConnectionFactory(settings.url())
                    .createXAConnection(settings.user(), settings.password());
            return new MikyuManagedConnection(factory, settings, credentials, connection,
                    connection.createXASession());
        } catch (JMSException e) {
            closeQuietly(connection);
            String message = "cannot connect to mikyu at " + settings.describe() + ": " + e.getMessage();
            throw e instanceof JMSSecurityException ? new SecurityException(message, e)
                    : new ResourceException(message, e);
        } catch (RuntimeException e) {
            closeQuietly(connection);
            throw new ResourceException("cannot connect to mikyu at " + settings.describe() + ": " + e, e);
        }
    }

    // ------------------------------------------------------------------------------------------------ handles

    @Override
    public Object getConnection(Subject subject, ConnectionRequestInfo info) throws ResourceException {
        checkUsable();
        ConnectionSettings configured = factory.settings();
        Credentials asked = Credentials.of(factory, subject, info, configured.user(), configured.password());
        if (!asked.sameAs(credentials)) {
            throw new SecurityException("this mikyu connection is signed on as " + credentials
                    + ", not as " + asked + "; re-authentication is not supported");
        }
        ConnectionHandle handle = new ConnectionHandle(this);
        handles.add(handle);
        return handle;
    }

    /** Moves a handle of another managed connection to this one (connection sharing, the container's choice). */
    @Override
    public void associateConnection(Object connection) throws ResourceException {
        checkUsable();
        if (!(connection instanceof ConnectionHandle handle)) {
            throw new ResourceException("not a mikyu connection handle: " + connection);
        }
        MikyuManagedConnection previous = handle.managedConnection();
        if (previous != this) {
            if (previous != null) {
                previous.handles.remove(handle);
            }
            handle.associate(this);
            handles.add(handle);
        }
    }

    /** A handle was closed by the application: the connection goes back to the pool. */
    void handleClosed(ConnectionHandle handle) {
        handles.remove(handle);
        fire(ConnectionEvent.CONNECTION_CLOSED, handle, null);
    }

    // ------------------------------------------------------------------------------------------------ lifecycle

    /**
     * Back to the pool: every handle is invalidated (its session, producers, consumers and browsers closed, which
     * gives prefetched messages back), a local transaction still open is rolled back, the connection is stopped.
     * The physical connection and session stay open for the next handle.
     */
    @Override
    public void cleanup() throws ResourceException {
        if (destroyed) {
            throw new IllegalStateException("the managed connection is destroyed");
        }
        for (ConnectionHandle h : handles) {
            h.invalidate();
        }
        handles.clear();
        try {
            transactions.rollbackLocal();
        } catch (XAException e) {
            LOG.debug("rolling back a local transaction at cleanup failed (it is rolled back anyway)", e);
        }
        if (started) {
            started = false;
            try {
                physical.stop();
            } catch (JMSException | RuntimeException e) {
                LOG.debug("stopping a pooled connection failed", e);
            }
        }
    }

    @Override
    public void destroy() throws ResourceException {
        if (destroyed) {
            return;
        }
        try {
            cleanup();
        } catch (ResourceException | RuntimeException e) {
            LOG.debug("cleanup before destroy failed", e);
        }
        destroyed = true;
        if (factory.adapter() != null) {
            factory.adapter().connections().remove(this);
        }
        closeQuietly(physical);
    }

    /** For the adapter's stop: destroys this connection whatever the pool thinks. */
    @Override
    public void close() throws ResourceException {
        destroy();
    }

    /** Starts message delivery to the handles' consumers (a handle's {@code start()}). */
    void start() throws JMSException {
        if (!started) {
            physical.start();
            started = true;
        }
    }

    private void lost(JMSException e) {
        broken = true;
        LOG.warn("a pooled mikyu connection to {} was lost; the pool discards it: {}", settings.describe(),
                e.getMessage());
        fire(ConnectionEvent.CONNECTION_ERROR_OCCURRED, null, e);
    }

    /** Neither destroyed nor lost. */
    boolean usable() {
        return !broken && !destroyed;
    }

    private void checkUsable() throws ResourceException {
        if (destroyed) {
            throw new IllegalStateException("the managed connection is destroyed");
        }
        if (broken) {
            throw new ResourceException("the managed connection to " + settings.describe() + " was lost");
        }
    }

    // ------------------------------------------------------------------------------------------------ events

    void fire(int type, ConnectionHandle handle, Exception failure) {
        ConnectionEvent event = new ConnectionEvent(this, type, failure);
        if (handle != null) {
            event.setConnectionHandle(handle);
        }
        for (ConnectionEventListener l : listeners) {
            try {
                switch (type) {
                    case ConnectionEvent.CONNECTION_CLOSED -> l.connectionClosed(event);
                    case ConnectionEvent.CONNECTION_ERROR_OCCURRED -> l.connectionErrorOccurred(event);
                    case ConnectionEvent.LOCAL_TRANSACTION_STARTED -> l.localTransactionStarted(event);
                    case ConnectionEvent.LOCAL_TRANSACTION_COMMITTED -> l.localTransactionCommitted(event);
                    case ConnectionEvent.LOCAL_TRANSACTION_ROLLEDBACK -> l.localTransactionRolledback(event);
                    default -> throw new java.lang.IllegalStateException("unknown connection event " + type);
                }
            } catch (RuntimeException e) {
                LOG.warn("a connection event listener failed on event {}", type, e);
            }
        }
    }

    @Override
    public void addConnectionEventListener(ConnectionEventListener listener) {
        listeners.add(listener);
    }

    @Override
    public void removeConnectionEventListener(ConnectionEventListener listener) {
        listeners.remove(listener);
    }

    // ------------------------------------------------------------------------------------------------ transactions

    @Override
    public XAResource getXAResource() throws ResourceException {
        checkUsable();
        return transactions.enlistable();
    }

    @Override
    public LocalTransaction getLocalTransaction() throws ResourceException {
        checkUsable();
        return localTransaction;
    }

    TransactionState transactions() {
        return transactions;
    }

    // ------------------------------------------------------------------------------------------------ the rest

    XASession session() {
        return session;
    }

    XAConnection physical() {
        return physical;
    }

    ConnectionSettings settings() {
        return settings;
    }

    Credentials credentials() {
        return credentials;
    }

    int handleCount() {
        return handles.size();
    }

    @Override
    public ManagedConnectionMetaData getMetaData() throws ResourceException {
        checkUsable();
        return new ManagedConnectionMetaData() {
            @Override
            public String getEISProductName() {
                return "mikyu";
            }

            @Override
            public String getEISProductVersion() {
                String v = MikyuManagedConnection.class.getPackage().getImplementationVersion();
                return v == null ? "unknown" : v;
            }

            @Override
            public int getMaxConnections() {
                return 0; // no limit of the provider's
            }

            @Override
            public String getUserName() {
                return credentials.user() == null ? "" : credentials.user();
            }
        };
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    private static void closeQuietly(XAConnection c) {
        if (c != null) {
            try {
                c.close();
            } catch (JMSException | RuntimeException e) {
                LOG.debug("closing a mikyu connection failed", e);
            }
        }
    }

    @Override
    public String toString() {
        return "MikyuManagedConnection[" + settings.describe() + (broken ? ", lost" : "")
                + (destroyed ? ", destroyed" : "") + "]";
    }
}
