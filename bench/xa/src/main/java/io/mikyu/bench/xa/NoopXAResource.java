package io.mikyu.bench.xa;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A resource that takes part in two-phase commit and does nothing: with H2 beside it, Narayana prepares both, writes
 * its log and commits both, so a run measures what every provider's transactions pay besides the provider.
 * It votes {@link #XA_OK} (not read-only), or Narayana would skip its log.
 */
final class NoopXAResource implements XAResource {

    @Override
    public void start(Xid xid, int flags) {
    }

    @Override
    public void end(Xid xid, int flags) {
    }

    @Override
    public int prepare(Xid xid) {
        return XA_OK;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) {
    }

    @Override
    public void rollback(Xid xid) {
    }

    @Override
    public void forget(Xid xid) {
    }

    @Override
    public Xid[] recover(int flag) throws XAException {
        return new Xid[0];
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other == this;
    }

    @Override
    public int getTransactionTimeout() {
        return 0;
    }

    @Override
    public boolean setTransactionTimeout(int seconds) {
        return false;
    }
}
