package io.mikyu.jca.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.LocalTransaction;
import jakarta.resource.spi.LocalTransactionException;

import javax.transaction.xa.XAException;

/**
 * The container's resource-manager local transaction (a pool configured for LocalTransaction): a branch of the
 * physical XA session under an internal Xid, committed in one phase. The container demarcates it, so no
 * LOCAL_TRANSACTION_* events are sent (those are for transactions the application demarcates).
 */
final class ContainerLocalTransaction implements LocalTransaction {

    private final TransactionState state;

    ContainerLocalTransaction(TransactionState state) {
        this.state = state;
    }

    @Override
    public void begin() throws ResourceException {
        try {
            state.beginLocal(false);
        } catch (XAException e) {
            throw failed("begin", e);
        }
    }

    @Override
    public void commit() throws ResourceException {
        try {
            state.commitLocal();
        } catch (XAException e) {
            throw failed("commit", e);
        }
    }

    @Override
    public void rollback() throws ResourceException {
        try {
            state.rollbackLocal();
        } catch (XAException e) {
            throw failed("roll back", e);
        }
    }

    static LocalTransactionException failed(String what, XAException e) {
        LocalTransactionException l = new LocalTransactionException("cannot " + what
                + " the local transaction: " + e.getMessage() + " (XA error " + e.errorCode + ")", e);
        l.setErrorCode(String.valueOf(e.errorCode));
        return l;
    }
}
