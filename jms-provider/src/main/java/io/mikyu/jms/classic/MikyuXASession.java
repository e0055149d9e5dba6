package io.mikyu.jms.classic;

import jakarta.jms.JMSException;
import jakarta.jms.QueueSession;
import jakarta.jms.Session;
import jakarta.jms.TopicSession;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.XAQueueSession;
import jakarta.jms.XASession;
import jakarta.jms.XATopicSession;

import javax.transaction.xa.XAResource;

/**
 * A session whose work belongs to the XA branch its {@link #getXAResource() XAResource} is associated with (from
 * {@code start} to {@code end}); a transaction manager commits or rolls it back. Outside a branch it behaves as a
 * non-transacted AUTO_ACKNOWLEDGE session: sends take effect at once, a received message is acknowledged when
 * {@code receive} or {@code onMessage} returns. As the specification has it, {@link #getTransacted()} is always
 * true and {@link #commit()} / {@link #rollback()} always throw {@link TransactionInProgressException}.
 */
public final class MikyuXASession extends MikyuSession implements XASession, XAQueueSession, XATopicSession {

    private final MikyuXAResource resource;

    MikyuXASession(MikyuXAConnection connection, Domain domain) {
        super(connection, AUTO_ACKNOWLEDGE, domain);
        this.resource = new MikyuXAResource(this, connection);
    }

    @Override
    public Session getSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public QueueSession getQueueSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public TopicSession getTopicSession() throws JMSException {
        checkOpen();
        return this;
    }

    @Override
    public XAResource getXAResource() {
        return resource;
    }

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return true;
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        checkOpen();
        return SESSION_TRANSACTED;
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        throw new TransactionInProgressException("an XA session is committed by its transaction manager, "
                + "through its XAResource");
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        throw new TransactionInProgressException("an XA session is rolled back by its transaction manager, "
                + "through its XAResource");
    }

    @Override
    TransactionWork currentWork() {
        return resource.activeWork();
    }

    @Override
    void consumedIn(TransactionWork w, Held h) {
        resource.consumed(w, h);
    }

    @Override
    boolean transactedSession() {
        return true;
    }

    @Override
    void closing() {
        resource.sessionClosing();
    }
}
