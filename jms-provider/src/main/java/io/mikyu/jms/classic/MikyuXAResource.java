package io.mikyu.jms.classic;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.PreparedAhead;
import io.mikyu.engine.TransactionExistsException;
import io.mikyu.engine.TransactionNotFoundException;
import io.mikyu.engine.XidFormat;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The XA resource of one {@link MikyuXASession}: the session's work goes to the branch it is associated with, and
 * the branch becomes an engine transaction — prepared under the Xid ({@code Transaction.prepare}), then committed
 * or rolled back ({@code Mikyu.commitPrepared} / {@code rollbackPrepared}), or committed in one write when the
 * manager commits in one phase. The same on an embedded store and on a broker: a prepared branch belongs to the
 * store, not to this JVM or connection, and {@link #recover} lists it after any restart.
 *
 * <p>What this resource answers, by the XA specification: {@code XAER_NOTA} for an Xid it does not know,
 * {@code XAER_PROTO} for a call out of order (prepare before end, a second start, commit of an unprepared branch
 * in two phases), {@code XAER_INVAL} for a null Xid or unknown flags, {@code XAER_DUPID} for a start or prepare
 * of an Xid already in use, {@code XA_RBROLLBACK} / {@code XA_RBTIMEOUT} when the branch was rolled back (its
 * work failed, TMFAIL, or its timeout), and {@code XAER_RMFAIL} when the broker cannot be reached in time — the
 * outcome of that call is then unknown, and it is never reported as a rollback.
 */
final class MikyuXAResource implements XAResource {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MikyuXAResource.class);

    private final MikyuXASession session;
    private final MikyuXAConnection connection;
    /** Seconds; 0: the connection's {@code transactionTimeout}. */
    private volatile int timeoutSeconds;
    /** The branch the session is associated with now (guarded by this). */
    private Branch current;
    /** Branches the session suspended (TMSUSPEND) and may resume (guarded by this). */
    private final Set<Branch> suspended = new HashSet<>();

    MikyuXAResource(MikyuXASession session, MikyuXAConnection connection) {
        this.session = session;
        this.connection = connection;
    }

    // --------------------------------------------------------------------------------------- the session's side

    /** The work of the branch the session is actively associated with, or null outside one. */
    synchronized TransactionWork activeWork() {
        return current == null ? null : current.work;
    }

    /** A message was delivered inside {@code w}: the branch renews (and bounds) its lease from now on. */
    void consumed(TransactionWork w, Held h) {
        Branch b;
        synchronized (this) {
            b = current;
        }
        session.leases.released(h);
        w.consumed(h);
        if (b != null && b.work == w) {
            b.bound(h, Branches.now());
        }
    }

    /** The session closes: its associations end, the branches and their work stay for the manager to finish. */
    synchronized void sessionClosing() {
        if (current != null) {
            current.leave(this);
            current = null;
        }
        for (Branch b : suspended) {
            b.leave(this);
        }
        suspended.clear();
    }

    // ----------------------------------------------------------------------------------------- association

    @Override
    public void start(Xid xid, int flags) throws XAException {
        byte[] id = bytes(xid);
        if (session.isClosed()) {
            throw XaErrors.of(XAException.XAER_PROTO, "the session of this XAResource is closed");
        }
        Branches branches = branches();
        synchronized (this) {
            if (current != null) {
                throw XaErrors.of(XAException.XAER_PROTO, "the session is already associated with transaction "
                        + current + "; end it before starting " + XidFormat.toText(id));
            }
            switch (flags) {
                case TMNOFLAGS -> {
                    Branch b = branches.begin(id, Branches.now() + getTransactionTimeout() * 1000L);
                    if (b == null) {
                        throw XaErrors.of(XAException.XAER_DUPID, "transaction " + XidFormat.toText(id)
                                + " is already in progress: join it with TMJOIN, or use another Xid");
                    }
                    b.start(this);
                    current = b;
                }
                case TMJOIN -> {
                    Branch b = branches.get(id);
                    if (b == null) {
                        throw XaErrors.of(XAException.XAER_NOTA, "no transaction " + XidFormat.toText(id)
                                + " in progress to join");
                    }
                    if (suspended.contains(b)) {
                        throw XaErrors.of(XAException.XAER_PROTO, "this session suspended transaction " + b
                                + ": resume it with TMRESUME");
                    }
                    b.join(this);
                    current = b;
                }
                case TMRESUME -> {
                    Branch b = suspendedBranch(id);
                    if (b == null) {
                        throw XaErrors.of(XAException.XAER_PROTO, "this session did not suspend transaction "
                                + XidFormat.toText(id));
                    }
                    b.resume(this);
                    suspended.remove(b);
                    current = b;
                }
                default -> throw XaErrors.of(XAException.XAER_INVAL, "start takes TMNOFLAGS, TMJOIN or TMRESUME, "
                        + "not flags 0x" + Integer.toHexString(flags));
            }
        }
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        byte[] id = bytes(xid);
        if (flags != TMSUCCESS && flags != TMFAIL && flags != TMSUSPEND) {
            throw XaErrors.of(XAException.XAER_INVAL, "end takes TMSUCCESS, TMFAIL or TMSUSPEND, not flags 0x"
                    + Integer.toHexString(flags));
        }
        Branch b;
        synchronized (this) {
            if (current != null && current.is(id)) {
                b = current;
            } else {
                b = suspendedBranch(id);
                if (b == null || flags == TMSUSPEND) {
                    throw XaErrors.of(current == null && branches().get(id) == null ? XAException.XAER_NOTA
                            : XAException.XAER_PROTO, "this session is not " + (b == null ? "associated with"
                            : "actively associated with") + " transaction " + XidFormat.toText(id));
                }
            }
            if (flags == TMSUSPEND) {
                b.suspend(this);
                suspended.add(b);
                current = null;
                return;
            }
            if (b == current) {
                current = null;
            } else {
                suspended.remove(b);
            }
        }
        try {
            b.end(this, flags == TMFAIL, Branches.now());
        } catch (XAException rolledBack) {
            branches().forget(b);
            throw rolledBack;
        }
        if (flags == TMSUCCESS && connection.options.prepareAhead()) {
            b.writeAhead(connection, connection.userName());
        }
    }

    private Branch suspendedBranch(byte[] id) {
        for (Branch b : suspended) {
            if (b.is(id)) {
                return b;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ outcome

    @Override
    public int prepare(Xid xid) throws XAException {
        byte[] id = bytes(xid);
        Branches branches = branches();
        Branch b = openBranch(branches, id, "prepare");
        TransactionWork.Taken work = finish(branches, b);
        if (work.isEmpty()) {
            branches.forget(b);
            return XA_RDONLY;
        }
        PreparedAhead ahead = b.aheadFor(work);
        try {
            if (ahead != null) {
                work.confirmAhead(ahead);
            } else {
                work.prepare(connection, id, connection.userName());
            }
        } catch (TransactionExistsException e) {
            branches.forget(b);
            work.rollback("its Xid is already prepared");
            throw XaErrors.of(XAException.XAER_DUPID, "transaction " + b + " is already prepared in the store", e);
        } catch (RuntimeException e) {
            branches.forget(b);
            RuntimeException cause = CommitFailure.cause(e);
            if (CommitFailure.of(e) != CommitFailure.ROLLED_BACK) {
                branches.preparedHere(id, work); // rollback() settles it either way
                throw XaErrors.of(XAException.XAER_RMFAIL, "cannot tell whether transaction " + b + " was prepared",
                        cause);
            }
            work.rollback("the XA transaction could not be prepared");
            throw XaErrors.of(XAException.XA_RBROLLBACK, "transaction " + b + " could not be prepared and was "
                    + "rolled back", cause);
        }
        branches.forget(b);
        branches.preparedHere(id, work);
        return XA_OK;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        byte[] id = bytes(xid);
        Branches branches = branches();
        if (onePhase) {
            commitOnePhase(branches, id);
            return;
        }
        Branch b = branches.get(id);
        if (b != null) {
            throw XaErrors.of(XAException.XAER_PROTO, "transaction " + b + " is not prepared: prepare it, or "
                    + "commit it in one phase");
        }
        TransactionWork.Taken here = branches.takePrepared(id);
        try {
            connection.engine.commitPrepared(id);
        } catch (TransactionNotFoundException e) {
            throw XaErrors.of(XAException.XAER_NOTA, "no transaction is prepared as " + XidFormat.toText(id), e);
        } catch (RuntimeException e) {
            if (CommitFailure.of(e) != CommitFailure.COMMITTED) {
                throw failedDecision(branches, id, here, "committed", e);
            }
            // The decision is durable; the store applies its writes later. A failure here would be a lie.
            LOG.warn("transaction {} is committed but not applied yet; the store applies it later: {}",
                    XidFormat.toText(id), e.getMessage());
        }
        if (here != null) {
            here.afterPrepared(true, null);
        }
    }

    private void commitOnePhase(Branches branches, byte[] id) throws XAException {
        Branch b = openBranch(branches, id, "commit in one phase");
        TransactionWork.Taken work = finish(branches, b);
        PreparedAhead ahead = b.aheadFor(work);
        try {
            if (ahead != null) {
                work.commitAhead(ahead);
            } else {
                work.commit(connection);
            }
        } catch (RuntimeException e) {
            branches.forget(b);
            RuntimeException cause = CommitFailure.cause(e);
            if (CommitFailure.of(e) != CommitFailure.ROLLED_BACK) {
                work.abandon("the outcome of its commit is unknown");
                throw XaErrors.of(XAException.XAER_RMFAIL, "cannot tell whether transaction " + b
                        + " was committed", cause);
            }
            work.rollback("the XA transaction could not be committed");
            throw XaErrors.of(XAException.XA_RBROLLBACK, "transaction " + b + " could not be committed and was "
                    + "rolled back", cause);
        }
        branches.forget(b);
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        byte[] id = bytes(xid);
        Branches branches = branches();
        Branch b = branches.get(id);
        if (b != null) {
            if (b.rollback()) {
                branches.forget(b);
            }
            if (!b.aheadLeftBehind()) {
                return;
            }
            // Its record written ahead is in the store (reopened since, say), in doubt: roll that back too.
        }
        TransactionWork.Taken here = branches.takePrepared(id);
        try {
            connection.engine.rollbackPrepared(id);
        } catch (TransactionNotFoundException e) {
            if (here != null) {
                here.rollback("the XA transaction was rolled back"); // its prepare never reached the store
                return;
            }
            if (b != null) {
                return; // the branch was rolled back here; its record written ahead never reached the store
            }
            throw XaErrors.of(XAException.XAER_NOTA, "no transaction " + XidFormat.toText(id)
                    + " is in progress or prepared", e);
        } catch (RuntimeException e) {
            throw failedDecision(branches, id, here, "rolled back", e);
        }
        if (here != null) {
            here.afterPrepared(false, "the XA transaction was rolled back");
        }
    }

    private static XAException failedDecision(Branches branches, byte[] id, TransactionWork.Taken here, String what,
                                              RuntimeException e) {
        if (here != null) {
            branches.preparedHere(id, here); // still in doubt: the manager will ask again
        }
        if (XaErrors.outcomeUnknown(e)) {
            return XaErrors.of(XAException.XAER_RMFAIL, "cannot tell whether transaction " + XidFormat.toText(id)
                    + " was " + what, e);
        }
        return XaErrors.of(XAException.XAER_RMERR, "transaction " + XidFormat.toText(id) + " could not be " + what
                + (e instanceof AccessDeniedException ? " by this user" : ""), e);
    }

    /** The open branch of {@code id}, or the error for an Xid that is prepared already or unknown. */
    private Branch openBranch(Branches branches, byte[] id, String what) throws XAException {
        Branch b = branches.get(id);
        if (b != null) {
            return b;
        }
        boolean prepared;
        try {
            prepared = isPrepared(id);
        } catch (RuntimeException e) {
            throw XaErrors.of(XaErrors.outcomeUnknown(e) ? XAException.XAER_RMFAIL : XAException.XAER_RMERR,
                    "cannot " + what + " transaction " + XidFormat.toText(id), e);
        }
        if (prepared) {
            throw XaErrors.of(XAException.XAER_PROTO, "cannot " + what + " transaction " + XidFormat.toText(id)
                    + ": it is prepared; commit or roll it back");
        }
        throw XaErrors.of(XAException.XAER_NOTA, "cannot " + what + " transaction " + XidFormat.toText(id)
                + ": no such transaction is in progress");
    }

    private TransactionWork.Taken finish(Branches branches, Branch b) throws XAException {
        try {
            return b.finish(Branches.now());
        } catch (XAException e) {
            if (e.errorCode != XAException.XAER_PROTO) {
                branches.forget(b); // rolled back: later calls find nothing (XAER_NOTA)
            }
            throw e;
        }
    }

    private boolean isPrepared(byte[] id) {
        for (byte[] p : connection.engine.preparedTransactions()) {
            if (java.util.Arrays.equals(p, id)) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------------ recovery

    @Override
    public Xid[] recover(int flags) throws XAException {
        if ((flags & ~(TMSTARTRSCAN | TMENDRSCAN)) != 0) {
            throw XaErrors.of(XAException.XAER_INVAL, "recover takes TMSTARTRSCAN, TMENDRSCAN or TMNOFLAGS, not "
                    + "flags 0x" + Integer.toHexString(flags));
        }
        if ((flags & TMSTARTRSCAN) == 0) {
            return new Xid[0]; // a scan returns everything at its start
        }
        List<byte[]> prepared;
        try {
            prepared = connection.engine.preparedTransactions();
        } catch (RuntimeException e) {
            throw XaErrors.of(XaErrors.outcomeUnknown(e) ? XAException.XAER_RMFAIL : XAException.XAER_RMERR,
                    "cannot list the prepared transactions of " + connection.engine.location(), e);
        }
        List<Xid> out = new ArrayList<>(prepared.size());
        for (byte[] p : prepared) {
            if (XidFormat.isXid(p)) {
                out.add(XidFormat.fromBytes(p));
            }
        }
        return out.toArray(new Xid[0]);
    }

    /** mikyu never completes a branch heuristically, so there is never anything to forget. */
    @Override
    public void forget(Xid xid) throws XAException {
        byte[] id = bytes(xid);
        throw XaErrors.of(XAException.XAER_NOTA, "transaction " + XidFormat.toText(id)
                + " was not completed heuristically: there is nothing to forget");
    }

    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        return other instanceof MikyuXAResource r && r.branches() == branches();
    }

    @Override
    public int getTransactionTimeout() {
        int t = timeoutSeconds;
        return t > 0 ? t : (int) connection.options.transactionTimeout().toSeconds();
    }

    /** For branches this resource starts from now on; 0 restores the connection's {@code transactionTimeout}. */
    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        if (seconds < 0) {
            throw XaErrors.of(XAException.XAER_INVAL, "a transaction timeout cannot be negative: " + seconds);
        }
        timeoutSeconds = seconds;
        return true;
    }

    private Branches branches() throws XAException {
        try {
            return connection.branches();
        } catch (RuntimeException e) {
            throw XaErrors.of(XaErrors.outcomeUnknown(e) ? XAException.XAER_RMFAIL : XAException.XAER_RMERR,
                    "cannot reach the store of " + connection.engine.location(), e);
        }
    }

    private static byte[] bytes(Xid xid) throws XAException {
        if (xid == null) {
            throw XaErrors.of(XAException.XAER_INVAL, "the Xid is null");
        }
        try {
            return XidFormat.toBytes(xid);
        } catch (IllegalArgumentException e) {
            throw XaErrors.of(XAException.XAER_INVAL, "invalid Xid", e);
        }
    }

    @Override
    public String toString() {
        return "MikyuXAResource[" + connection.engine.location() + "]";
    }
}
