package io.mikyu.jms;

import io.mikyu.jms.context.MikyuJMSContext;
import io.mikyu.jms.context.RuntimeExceptions;
import jakarta.jms.JMSException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XAJMSContext;
import jakarta.jms.XAQueueConnection;
import jakarta.jms.XAQueueConnectionFactory;
import jakarta.jms.XATopicConnection;
import jakarta.jms.XATopicConnectionFactory;

/**
 * mikyu's XA connection factory, for transaction managers and application servers: its connections make
 * {@link jakarta.jms.XASession}s whose {@link javax.transaction.xa.XAResource} takes part in two-phase commit,
 * against an embedded store ({@code vm://}) or a broker ({@code tcp://}, {@code tls://}, {@code unix://}) alike.
 * It is a plain {@link MikyuConnectionFactory} too. JNDI: {@code xaConnectionFactory.<name>=<url>}. The URL option
 * {@code transactionTimeout} (seconds, default 60) is the default timeout of a branch.
 */
public class MikyuXAConnectionFactory extends MikyuConnectionFactory implements XAConnectionFactory,
        XAQueueConnectionFactory, XATopicConnectionFactory {

    private static final long serialVersionUID = 1L;

    public MikyuXAConnectionFactory() {
        super();
    }

    /** @throws IllegalArgumentException if the URL is not a valid mikyu URL */
    public MikyuXAConnectionFactory(String url) {
        super(url);
    }

    @Override
    public XAConnection createXAConnection() throws JMSException {
        return ConnectionOpeners.get().openXA(options(), null, null);
    }

    @Override
    public XAConnection createXAConnection(String userName, String password) throws JMSException {
        return ConnectionOpeners.get().openXA(options(), userName, password);
    }

    @Override
    public XAQueueConnection createXAQueueConnection() throws JMSException {
        return ConnectionOpeners.get().openXA(options(), null, null);
    }

    @Override
    public XAQueueConnection createXAQueueConnection(String userName, String password) throws JMSException {
        return ConnectionOpeners.get().openXA(options(), userName, password);
    }

    @Override
    public XATopicConnection createXATopicConnection() throws JMSException {
        return ConnectionOpeners.get().openXA(options(), null, null);
    }

    @Override
    public XATopicConnection createXATopicConnection(String userName, String password) throws JMSException {
        return ConnectionOpeners.get().openXA(options(), userName, password);
    }

    @Override
    public XAJMSContext createXAContext() {
        return createXAContext(null, null);
    }

    @Override
    public XAJMSContext createXAContext(String userName, String password) {
        try {
            return MikyuJMSContext.createXA(ConnectionOpeners.get().openXA(options(), userName, password));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }
}
