package io.mikyu.jms.client;

import io.mikyu.jms.ConnectionOpener;
import io.mikyu.jms.config.ProviderOptions;
import jakarta.jms.JMSException;

/** What the connection factories open connections with: registered in {@code META-INF/services}. */
public final class MikyuConnectionOpener implements ConnectionOpener {

    @Override
    public MikyuConnection open(ProviderOptions options, String user, String password) throws JMSException {
        return MikyuConnection.open(options, user, password);
    }

    @Override
    public MikyuXAConnection openXA(ProviderOptions options, String user, String password) throws JMSException {
        return MikyuConnection.openXA(options, user, password);
    }
}
