package io.mikyu.jca.outbound;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.time.Duration;

/**
 * Where the work of a managed connection's one physical XA session goes: into the container's JTA branch while
 * the session is associated with one (through {@link #enlistable()}, the XAResource the container enlists), into
 * a local transaction (the container's {@code LocalTransaction}, or a handle's locally transacted session outside
 * JTA) run as a branch of the same session under a {@link LocalXid} and committed in one phase, or nowhere: outside
 * both the XA session is auto-acknowledging and sends at once.
 */
final class TransactionState {

    /** A local transaction has no timeout: the store's branch timer must never roll it back behind the caller. */
    private static final int LOCAL_TIMEOUT_SECONDS = (int) Duration.ofDays(3650).toSeconds();

    private final XAResource physical;
    private final Enlistable enlistable = new Enlistable();
    /** The container's branch the session is associated with now (guarded by this). */
    private Xid global;
    /** The local transaction in progress (guarded by this). */
    private Xid local;
    private boolean localOfApplication;
    /** What the container set with setTransactionTimeout (0: the URL's). */
    private volatile int containerTimeout;

    TransactionState(XAResource physical) {
        this.physical = physical;
    }

    /** The XAResource the container enlists in its transactions. */
    XAResource enlistable() {
        return enlistable;
    }

    /** Whether the container's transaction (JTA, or its LocalTransaction) owns the session's work now. */
    synchronized boolean inContainerTransaction() {
        return global != null || (local != null && !localOfApplication);
    }

    synchronized boolean inApplicationLocal() {
        return local != null && localOfApplication;
    }

    synchronized boolean inAnyTransaction() {
        return global != null || local != null;
    }

    /**
     * Starts a local transaction on the physical session.
     *
     * @throws XAException XAER_PROTO if a transaction is in progress already
     */
    void beginLocal(boolean ofApplication) throws XAException {
        LocalXid xid = LocalXid.next();
        synchronized (this) {
            if (global != null || local != null) {
                throw protocol("a transaction is in progress on this connection already ("
                        + (global != null ? "a JTA transaction" : "a local transaction") + ")");
            }
            physical.setTransactionTimeout(LOCAL_TIMEOUT_SECONDS);
            try {
                physical.start(xid, XAResource.TMNOFLAGS);
            } finally {
                physical.setTransactionTimeout(containerTimeout);
            }
            local = xid;
            localOfApplication = ofApplication;
        }
    }

    /** Commits the local transaction in progress, if any, in one phase. */
    void commitLocal() throws XAException {
        Xid xid = takeLocal();
        if (xid != null) {
            physical.end(xid, XAResource.TMSUCCESS);
            physical.commit(xid, true);
        }
    }

    /** Rolls back the local transaction in progress, if any: its sends are dropped, its messages come back. */
    void rollbackLocal() throws XAException {
        Xid xid = takeLocal();
        if (xid != null) {
            try {
                physical.end(xid, XAResource.TMSUCCESS);
            } finally {
                physical.rollback(xid);
            }
        }
    }

    private synchronized Xid takeLocal() {
        Xid xid = local;
        local = null;
        localOfApplication = false;
        return xid;
    }

    private static XAException protocol(String message) {
        XAException e = new XAException(message);
        e.errorCode = XAException.XAER_PROTO;
        return e;
    }

    /**
     * The physical XAResource as the container sees it: the same calls, with the association to a JTA branch
     * tracked so the handles know whether they are inside one.
     */
    final class Enlistable implements XAResource {

        XAResource physical() {
            return physical;
        }

        @Override
        public void start(Xid xid, int flags) throws XAException {
            synchronized (TransactionState.this) {
                if (local != null) {
                    throw protocol("a local transaction is in progress on this connection (a locally transacted "
                            + "session made outside a JTA transaction): commit or roll it back first");
                }
                physical.start(xid, flags);
                global = xid;
            }
        }

        @Override
        public void end(Xid xid, int flags) throws XAException {
            try {
                physical.end(xid, flags);
            } finally {
                synchronized (TransactionState.this) {
                    global = null;
                }
            }
        }

        @Override
        public int prepare(Xid xid) throws XAException {
            return physical.prepare(xid);
        }

        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            physical.commit(xid, onePhase);
        }

        @Override
        public void rollback(Xid xid) throws XAException {
            physical.rollback(xid);
        }

        @Override
        public Xid[] recover(int flags) throws XAException {
            return physical.recover(flags);
        }

        @Override
        public void forget(Xid xid) throws XAException {
            physical.forget(xid);
        }

        @Override
        public boolean isSameRM(XAResource other) throws XAException {
            return physical.isSameRM(other instanceof Enlistable e ? e.physical() : other);
        }

        @Override
        public int getTransactionTimeout() throws XAException {
            return physical.getTransactionTimeout();
        }

        @Override
        public boolean setTransactionTimeout(int seconds) throws XAException {
            boolean set = physical.setTransactionTimeout(seconds);
            if (set) {
                containerTimeout = seconds;
            }
            return set;
        }

        @Override
        public String toString() {
            return "mikyu managed connection XAResource[" + physical + "]";
        }
    }
}
