package io.mikyu.jms.classic;

import io.mikyu.engine.security.Principal;
import io.mikyu.jms.ConnectionOpener;
import io.mikyu.jms.config.ProviderOptions;
import io.mikyu.jms.embedded.EmbeddedEngines;
import jakarta.jms.JMSException;
import jakarta.jms.XAQueueSession;
import jakarta.jms.XASession;
import jakarta.jms.XATopicSession;

/**
 * A connection whose {@link #createXASession() XA sessions} take part in distributed transactions through their
 * {@link javax.transaction.xa.XAResource}. Its plain {@code createSession} methods make ordinary sessions.
 */
public final class MikyuXAConnection extends MikyuConnection implements ConnectionOpener.AnyDomainXAConnection {

    private volatile String storeId;

    MikyuXAConnection(ProviderOptions options, EmbeddedEngines.Handle engineHandle, Principal principal) {
        super(options, engineHandle, principal);
    }

    @Override
    public XASession createXASession() throws JMSException {
        return addSession(() -> new MikyuXASession(this, MikyuSession.Domain.ANY));
    }

    @Override
    public XAQueueSession createXAQueueSession() throws JMSException {
        return addSession(() -> new MikyuXASession(this, MikyuSession.Domain.QUEUE));
    }

    @Override
    public XATopicSession createXATopicSession() throws JMSException {
        return addSession(() -> new MikyuXASession(this, MikyuSession.Domain.TOPIC));
    }

    /** The store or broker this connection reaches, as the resource manager its XA resources belong to. */
    Branches branches() {
        String id = storeId;
        if (id == null) {
            id = engine.storeId();
            storeId = id;
        }
        return Branches.of(id);
    }
}
