package io.mikyu.broker.xa;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.io.Serial;
import java.io.Serializable;

/**
 * A test-only third resource of a transaction that halts the JVM ({@link Runtime#halt}, as {@code kill -9} would
 * stop it: no shutdown hooks, nothing flushed) in one phase, when the JVM runs with
 * {@code -Dmikyu.xa.haltIn=<phase>}:
 * <ul>
 *   <li>{@code prepare}: enlisted last, it halts after the other resources prepared and before the transaction
 *   manager logged its decision (recovery then rolls the others back: presumed abort);</li>
 *   <li>{@code commit}: enlisted first, it halts after the decision to commit was logged and before any resource
 *   committed (recovery then commits the others).</li>
 * </ul>
 * It is {@link Serializable}, so Narayana keeps it in its log and, recovering in a JVM without the property, calls
 * it again: then it does nothing. It says which branch it is in ({@code branch <xid>}) when it joins.
 */
final class CrashingXAResource implements XAResource, Serializable {

    @Serial
    private static final long serialVersionUID = 1L;
    static final String HALT_IN = "mikyu.xa.haltIn";

    private final String phase;

    CrashingXAResource(String phase) {
        if (!phase.equals("prepare") && !phase.equals("commit")) {
            throw new IllegalArgumentException(phase);
        }
        this.phase = phase;
    }

    private void maybeHalt(String now) {
        if (now.equals(phase) && now.equals(System.getProperty(HALT_IN))) {
            ChildJvm.say("halting in " + now);
            Runtime.getRuntime().halt(42);
        }
    }

    @Override
    public void start(Xid xid, int flags) {
        if (System.getProperty(HALT_IN) != null) {
            ChildJvm.say("branch " + Xids.text(xid));
        }
    }

    @Override
    public void end(Xid xid, int flags) {
    }

    @Override
    public int prepare(Xid xid) {
        maybeHalt("prepare");
        return XA_OK;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) {
        maybeHalt("commit");
    }

    @Override
    public void rollback(Xid xid) {
    }

    @Override
    public void forget(Xid xid) {
    }

    @Override
    public Xid[] recover(int flag) {
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

    /** A resource that votes no in prepare: the transaction manager must roll the prepared others back. */
    static final class Vetoing implements XAResource {

        @Override
        public void start(Xid xid, int flags) {
        }

        @Override
        public void end(Xid xid, int flags) {
        }

        @Override
        public int prepare(Xid xid) throws XAException {
            throw new XAException(XAException.XA_RBROLLBACK);
        }

        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            throw new XAException(XAException.XAER_PROTO);
        }

        @Override
        public void rollback(Xid xid) {
        }

        @Override
        public void forget(Xid xid) {
        }

        @Override
        public Xid[] recover(int flag) {
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
}
