package io.mikyu.tck;

import io.mikyu.jms.jndi.MikyuInitialContextFactory;

import javax.naming.Context;
import javax.naming.NamingException;
import javax.naming.spi.InitialContextFactory;
import java.util.Hashtable;
import java.util.Map;

/**
 * The JNDI context of remote mode: {@code jndi.properties} as in vm mode, except that every connection factory's
 * URL, {@code tcp://TCK_DAEMON?options}, gets the address of the daemon {@link TckDaemon} started (its port is
 * known only at run time).
 */
public final class RemoteTckContextFactory implements InitialContextFactory {

    static final String PLACEHOLDER = "tcp://TCK_DAEMON";

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) throws NamingException {
        Hashtable<Object, Object> env = new Hashtable<>(environment);
        for (Map.Entry<Object, Object> e : env.entrySet()) {
            if (e.getKey() instanceof String key && key.startsWith(MikyuInitialContextFactory.CONNECTION_FACTORY_PREFIX)
                    && e.getValue() instanceof String url && url.startsWith(PLACEHOLDER)) {
                e.setValue(TckDaemon.uri() + url.substring(PLACEHOLDER.length()));
            }
        }
        return new MikyuInitialContextFactory().getInitialContext(env);
    }
}
