package io.mikyu.jca.testkit;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;

import javax.security.auth.Subject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server's pooling connection manager, small: free managed connections are matched by the factory; a connection
 * allocated inside a JTA transaction has its XAResource enlisted (once per transaction) and goes back to the pool
 * when the transaction is over and its handles are closed; a handle closed outside a transaction sends it back at
 * once (cleanup); CONNECTION_ERROR_OCCURRED destroys it. {@link #subject} set: container-managed sign-on.
 */
public final class TestConnectionManager implements ConnectionManager, ConnectionEventListener {

    private static final long serialVersionUID = 1L;

    private final transient TransactionManager tm;
    private final transient Set<ManagedConnection> free = new LinkedHashSet<>();
    private final transient Set<ManagedConnection> all = new LinkedHashSet<>();
    private final transient Map<ManagedConnection, Integer> handles = new HashMap<>();
    private final transient Map<ManagedConnection, Transaction> enlisted = new HashMap<>();
    public final transient List<ConnectionEvent> events = new CopyOnWriteArrayList<>();
    public transient volatile Subject subject;
    private int created;
    private int destroyed;

    public TestConnectionManager(TransactionManager tm) {
        this.tm = tm;
    }

    @Override
    public Object allocateConnection(ManagedConnectionFactory mcf, ConnectionRequestInfo info)
            throws ResourceException {
        ManagedConnection mc;
        synchronized (this) {
            mc = mcf.matchManagedConnections(new LinkedHashSet<>(free), subject, info);
            if (mc != null) {
                free.remove(mc);
            }
        }
        if (mc == null) {
            mc = mcf.createManagedConnection(subject, info);
            mc.addConnectionEventListener(this);
            synchronized (this) {
                all.add(mc);
                created++;
            }
        }
        enlist(mc);
        Object handle = mc.getConnection(subject, info);
        synchronized (this) {
            handles.merge(mc, 1, Integer::sum);
        }
        return handle;
    }

    private void enlist(ManagedConnection mc) throws ResourceException {
        if (tm == null) {
            return;
        }
        try {
            Transaction tx = tm.getTransaction();
            if (tx == null || tx.getStatus() != Status.STATUS_ACTIVE) {
                return;
            }
            synchronized (this) {
                if (enlisted.get(mc) == tx) {
                    return;
                }
                enlisted.put(mc, tx);
            }
            tx.enlistResource(mc.getXAResource());
            tx.registerSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    boolean back;
                    synchronized (TestConnectionManager.this) {
                        enlisted.remove(mc);
                        back = handles.getOrDefault(mc, 0) == 0 && all.contains(mc);
                    }
                    if (back) {
                        giveBack(mc);
                    }
                }
            });
        } catch (ResourceException e) {
            throw e;
        } catch (Exception e) {
            throw new ResourceException("cannot enlist " + mc, e);
        }
    }

    @Override
    public void connectionClosed(ConnectionEvent event) {
        events.add(event);
        ManagedConnection mc = (ManagedConnection) event.getSource();
        boolean back;
        synchronized (this) {
            int open = handles.merge(mc, -1, Integer::sum);
            back = open <= 0 && !enlisted.containsKey(mc) && all.contains(mc);
        }
        if (back) {
            giveBack(mc);
        }
    }

    private void giveBack(ManagedConnection mc) {
        try {
            mc.cleanup();
            synchronized (this) {
                free.add(mc);
            }
        } catch (ResourceException e) {
            destroy(mc);
        }
    }

    @Override
    public void connectionErrorOccurred(ConnectionEvent event) {
        events.add(event);
        destroy((ManagedConnection) event.getSource());
    }

    private void destroy(ManagedConnection mc) {
        synchronized (this) {
            if (!all.remove(mc)) {
                return;
            }
            free.remove(mc);
            handles.remove(mc);
            destroyed++;
        }
        try {
            mc.destroy();
        } catch (ResourceException ignored) {
            // gone anyway
        }
    }

    @Override
    public void localTransactionStarted(ConnectionEvent event) {
        events.add(event);
    }

    @Override
    public void localTransactionCommitted(ConnectionEvent event) {
        events.add(event);
    }

    @Override
    public void localTransactionRolledback(ConnectionEvent event) {
        events.add(event);
    }

    public synchronized int created() {
        return created;
    }

    public synchronized int destroyed() {
        return destroyed;
    }

    public synchronized int freeCount() {
        return free.size();
    }

    public synchronized Set<ManagedConnection> connections() {
        return new LinkedHashSet<>(all);
    }

    public List<Integer> eventTypes() {
        List<Integer> out = new ArrayList<>();
        for (ConnectionEvent e : events) {
            out.add(e.getId());
        }
        return out;
    }

    /** Destroys every connection (the pool shuts down). */
    public void close() {
        for (ManagedConnection mc : connections()) {
            destroy(mc);
        }
    }
}
