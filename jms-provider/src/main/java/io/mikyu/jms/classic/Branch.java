package io.mikyu.jms.classic;

import io.mikyu.engine.PreparedAhead;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.XidFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.transaction.xa.XAException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An XA branch of this JVM that is not prepared yet: the work of the sessions associated with it (one, or several
 * through {@code TMJOIN}), which of them are associated now, whether it must roll back, and its deadline. The
 * branch lives here, in the client, until {@code prepare} writes it to the store; the store knows of it before
 * only through the leases of the messages it consumed, and those end at the branch's deadline, so a branch whose
 * JVM died gives its messages back at its timeout without anyone having to roll it back.
 */
final class Branch {

    private static final Logger LOG = LoggerFactory.getLogger(Branch.class);

    private enum State {
        /** Sessions may start, join, end; work accumulates. */
        OPEN,
        /** Prepare or commit took the work; nothing may join. */
        FINISHING,
        /** Rolled back by its timeout; every later call learns XA_RBTIMEOUT. */
        TIMED_OUT,
        /** Rolled back by the transaction manager while sessions were still associated. */
        ROLLED_BACK
    }

    final byte[] xid;
    final long deadlineMillis;
    final TransactionWork work = new TransactionWork();
    private final Set<MikyuXAResource> active = new HashSet<>();
    private final Set<MikyuXAResource> suspended = new HashSet<>();
    private State state = State.OPEN;
    private boolean rollbackOnly;
    /** The branch's PREPARE record written ahead of {@code prepare} (option prepareAhead), and the work it holds. */
    private PreparedAhead ahead;
    private TransactionWork.Taken aheadOf;
    /** A record written ahead could not be rolled back (its store closed, say): the store may list it in doubt. */
    private boolean aheadLeftBehind;

    Branch(byte[] xid, long deadlineMillis) {
        this.xid = xid;
        this.deadlineMillis = deadlineMillis;
    }

    boolean is(byte[] id) {
        return java.util.Arrays.equals(xid, id);
    }

    @Override
    public String toString() {
        return XidFormat.toText(xid);
    }

    // --------------------------------------------------------------------------------------------- association

    synchronized void start(MikyuXAResource r) {
        active.add(r);
    }

    /** TMJOIN: another session of the same resource manager works in this branch too. */
    synchronized void join(MikyuXAResource r) throws XAException {
        checkUsable("join");
        dropAhead("joined after its end"); // its work may grow: the record written ahead would not hold it all
        active.add(r);
    }

    synchronized void suspend(MikyuXAResource r) {
        active.remove(r);
        suspended.add(r);
    }

    synchronized void resume(MikyuXAResource r) throws XAException {
        checkUsable("resume");
        suspended.remove(r);
        active.add(r);
    }

    /**
     * TMSUCCESS or TMFAIL: {@code r} leaves the branch.
     *
     * @return whether the branch can be forgotten (rolled back meanwhile, and nobody else is associated)
     * @throws XAException XA_RBTIMEOUT or XA_RBROLLBACK if the branch was rolled back meanwhile
     */
    synchronized boolean end(MikyuXAResource r, boolean fail, long now) throws XAException {
        active.remove(r);
        suspended.remove(r);
        if (fail) {
            rollbackOnly = true;
        }
        if (state == State.OPEN && now >= deadlineMillis) {
            timeOut(); // past its deadline, whether or not the timer has come round yet
        }
        if (state == State.TIMED_OUT || state == State.ROLLED_BACK) {
            TransactionWork.Taken late = work.take();
            late.rollback(state == State.TIMED_OUT ? "the XA transaction timed out" : "the XA transaction rolled back");
            throw XaErrors.of(state == State.TIMED_OUT ? XAException.XA_RBTIMEOUT : XAException.XA_RBROLLBACK,
                    "transaction " + this + (state == State.TIMED_OUT ? " timed out" : " was rolled back")
                            + " and its work was rolled back");
        }
        return false;
    }

    /**
     * Once no session is associated any more: starts writing the branch's PREPARE record, so its fsync runs while
     * the transaction manager prepares its other resources ({@link #aheadFor} hands it to {@code prepare}). Not for
     * a branch that must roll back, that a session suspended (it may resume and add work) or that did nothing.
     * If the engine refuses, nothing is written ahead and {@code prepare} reports why.
     */
    synchronized void writeAhead(MikyuConnection connection, String owner) {
        if (state != State.OPEN || rollbackOnly || ahead != null || !active.isEmpty() || !suspended.isEmpty()) {
            return;
        }
        TransactionWork.Taken snapshot = work.snapshot();
        if (snapshot.isEmpty()) {
            return;
        }
        try {
            ahead = snapshot.prepareAhead(connection, xid, owner);
            aheadOf = snapshot;
        } catch (RuntimeException e) {
            LOG.debug("transaction {} is not written ahead; prepare writes it: {}", this, e.toString());
        }
    }

    /**
     * The record written ahead for {@code taken}, the work prepare or a one-phase commit took, or null: none was
     * written, or the work changed since (it is then rolled back, and the caller writes the work as usual).
     */
    synchronized PreparedAhead aheadFor(TransactionWork.Taken taken) {
        PreparedAhead a = ahead;
        if (a == null) {
            return null;
        }
        if (aheadOf.sameAs(taken)) {
            ahead = null;
            aheadOf = null;
            return a;
        }
        dropAhead("its work changed");
        return null;
    }

    /**
     * Rolls back the record written ahead, if any. If that fails the record may be in doubt after a restart of the
     * store, and its manager rolls it back then (it never saw it prepared).
     */
    private void dropAhead(String why) {
        PreparedAhead a = ahead;
        ahead = null;
        aheadOf = null;
        if (a != null) {
            try {
                a.rollback();
            } catch (RuntimeException e) {
                aheadLeftBehind = true;
                LOG.warn("transaction {} ({}): the PREPARE record written ahead could not be rolled back: {}", this,
                        why, e.toString());
            }
        }
    }

    /** Whether a record written ahead for this branch may be in doubt in the store: its rollback failed. */
    synchronized boolean aheadLeftBehind() {
        return aheadLeftBehind;
    }

    /** A session of the branch closed: it ends its association as TMSUCCESS would. */
    synchronized void leave(MikyuXAResource r) {
        active.remove(r);
        suspended.remove(r);
    }

    synchronized boolean isAssociated() {
        return !active.isEmpty() || !suspended.isEmpty();
    }

    private void checkUsable(String what) throws XAException {
        switch (state) {
            case TIMED_OUT -> throw XaErrors.of(XAException.XA_RBTIMEOUT, "cannot " + what + " transaction " + this
                    + ": it timed out and was rolled back");
            case ROLLED_BACK -> throw XaErrors.of(XAException.XA_RBROLLBACK, "cannot " + what + " transaction "
                    + this + ": it was rolled back");
            case FINISHING -> throw XaErrors.of(XAException.XAER_PROTO, "cannot " + what + " transaction " + this
                    + ": it is being prepared or committed");
            default -> {
            }
        }
    }

    // ----------------------------------------------------------------------------------------------- outcome

    /**
     * Prepare or one-phase commit takes the work. A branch marked rollback-only (TMFAIL) or past its deadline is
     * rolled back instead and the matching XA_RB* thrown.
     *
     * @throws XAException XAER_PROTO while a session is still associated (XA: {@code end} comes first)
     */
    synchronized TransactionWork.Taken finish(long now) throws XAException {
        if (!active.isEmpty()) {
            throw XaErrors.of(XAException.XAER_PROTO, "transaction " + this + " still has " + active.size()
                    + " associated session(s): end() them before prepare or commit");
        }
        checkUsable("finish");
        if (now >= deadlineMillis) {
            timeOut();
            throw XaErrors.of(XAException.XA_RBTIMEOUT, "transaction " + this + " timed out and was rolled back");
        }
        if (rollbackOnly) {
            state = State.ROLLED_BACK;
            dropAhead("marked rollback-only");
            work.take().rollback("the XA transaction was marked rollback-only");
            throw XaErrors.of(XAException.XA_RBROLLBACK, "transaction " + this + " was marked rollback-only "
                    + "(end with TMFAIL) and was rolled back");
        }
        state = State.FINISHING;
        return work.take();
    }

    /**
     * The transaction manager rolls the branch back. Sessions still associated (a manager's timeout rolls back
     * from its own thread) learn it at their {@code end}.
     *
     * @return whether the branch can be forgotten now
     */
    synchronized boolean rollback() {
        if (state == State.OPEN) {
            state = State.ROLLED_BACK;
            dropAhead("rolled back");
            work.take().rollback("the XA transaction was rolled back");
        }
        return active.isEmpty();
    }

    /** The timer's call: rolls the branch back once past its deadline; renews the leases of what it consumed. */
    void tick(long now) {
        List<Held> held;
        synchronized (this) {
            if (state != State.OPEN) {
                return;
            }
            if (now >= deadlineMillis) {
                LOG.warn("XA transaction {} was not prepared within its timeout: rolled back", this);
                timeOut();
                return;
            }
            held = work.consumedNow();
        }
        for (Held h : held) {
            renew(h, now);
        }
    }

    synchronized boolean timedOutLongAgo(long now) {
        return state == State.TIMED_OUT && active.isEmpty() && now - deadlineMillis > 600_000;
    }

    private void timeOut() {
        state = State.TIMED_OUT;
        dropAhead("timed out");
        work.take().rollback("the XA transaction timed out");
    }

    /** A message consumed in the branch: its lease ends at the deadline at the latest. */
    void bound(Held h, long now) {
        if (h.source.transactional() && h.leaseUntil > deadlineMillis) {
            extend(h, Math.max(1, deadlineMillis - now));
        }
    }

    private void renew(Held h, long now) {
        long lease = h.consumer.session().connection.lease().toMillis();
        long until = Math.min(now + lease, deadlineMillis);
        if (h.source.transactional() && h.leaseUntil < now + lease / 2 && until > h.leaseUntil) {
            extend(h, until - now);
        }
    }

    private static void extend(Held h, long millis) {
        try {
            h.leaseUntil = h.source.extend(h.token(), java.time.Duration.ofMillis(millis));
        } catch (StaleLeaseException e) {
            LOG.warn("the lease of a message consumed in an XA transaction ended; preparing it will fail: {}",
                    e.getMessage());
        } catch (RuntimeException e) {
            LOG.debug("renewing the lease of a message of an XA transaction failed", e);
        }
    }
}
