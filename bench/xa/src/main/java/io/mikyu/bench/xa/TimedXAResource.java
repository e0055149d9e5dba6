package io.mikyu.bench.xa;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * An XAResource that adds the time spent in each call to its worker's {@link Phases}. Narayana calls prepare and
 * commit on the committing thread, one resource after the other, so what {@code commit()} takes beyond these calls is
 * the transaction manager's own work (its log).
 */
final class TimedXAResource implements XAResource {

    private final XAResource delegate;
    private final Phases phases;
    private final int start;
    private final int end;
    private final int prepare;
    private final int commit;

    TimedXAResource(XAResource delegate, Phases phases, int start, int end, int prepare, int commit) {
        this.delegate = delegate;
        this.phases = phases;
        this.start = start;
        this.end = end;
        this.prepare = prepare;
        this.commit = commit;
    }

    @Override
    public void start(Xid xid, int flags) throws XAException {
        long t = System.nanoTime();
        delegate.start(xid, flags);
        phases.add(start, System.nanoTime() - t);
    }

    @Override
    public void end(Xid xid, int flags) throws XAException {
        long t = System.nanoTime();
        delegate.end(xid, flags);
        phases.add(end, System.nanoTime() - t);
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        long t = System.nanoTime();
        int vote = delegate.prepare(xid);
        phases.add(prepare, System.nanoTime() - t);
        return vote;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        long t = System.nanoTime();
        delegate.commit(xid, onePhase);
        phases.add(commit, System.nanoTime() - t);
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        delegate.rollback(xid);
    }

    @Override
    public void forget(Xid xid) throws XAException {
        delegate.forget(xid);
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return delegate.recover(flag);
    }

    @Override
    public boolean isSameRM(XAResource other) throws XAException {
        return delegate.isSameRM(other instanceof TimedXAResource t ? t.delegate : other);
    }

    @Override
    public int getTransactionTimeout() throws XAException {
        return delegate.getTransactionTimeout();
    }

    @Override
    public boolean setTransactionTimeout(int seconds) throws XAException {
        return delegate.setTransactionTimeout(seconds);
    }
}
