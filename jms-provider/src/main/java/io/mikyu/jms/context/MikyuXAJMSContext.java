package io.mikyu.jms.context;

import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.XAJMSContext;
import jakarta.jms.XASession;

import javax.transaction.xa.XAResource;

/**
 * A JMSContext over one XASession: its work belongs to the XA branch its {@link #getXAResource() XAResource} is
 * associated with. {@link #getTransacted()} is true and {@code commit} / {@code rollback} throw
 * {@link jakarta.jms.TransactionInProgressRuntimeException}, as for the XASession itself.
 */
final class MikyuXAJMSContext extends MikyuJMSContext implements XAJMSContext {

    MikyuXAJMSContext(SharedConnection shared) {
        super(shared, JMSContext.SESSION_TRANSACTED, true);
    }

    @Override
    public JMSContext getContext() {
        checkOpen();
        return this;
    }

    @Override
    public XAResource getXAResource() {
        checkOpen();
        try {
            return ((XASession) session()).getXAResource();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }
}
