package io.mikyu.tck;

import io.mikyu.jms.jndi.MikyuInitialContextFactory;

import javax.naming.Context;
import javax.naming.NamingException;
import javax.naming.spi.InitialContextFactory;
import java.util.Hashtable;
import java.util.Map;

/**
 * The JNDI context of kafka mode: {@code jndi.properties} as in vm mode, except that every connection factory's
 * URL, {@code kafka://TCK_KAFKA?options}, gets the bootstrap servers of the cluster {@link TckKafka} started (its
 * ports are known only at run time).
 */
public final class KafkaTckContextFactory implements InitialContextFactory {

    static final String PLACEHOLDER = "kafka://TCK_KAFKA";

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) throws NamingException {
        Hashtable<Object, Object> env = new Hashtable<>(environment);
        for (Map.Entry<Object, Object> e : env.entrySet()) {
            if (e.getKey() instanceof String key && key.startsWith(MikyuInitialContextFactory.CONNECTION_FACTORY_PREFIX)
                    && e.getValue() instanceof String url && url.startsWith(PLACEHOLDER)) {
                e.setValue("kafka://" + TckKafka.bootstrapServers() + url.substring(PLACEHOLDER.length()));
            }
        }
        return new MikyuInitialContextFactory().getInitialContext(env);
    }
}
