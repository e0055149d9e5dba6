package io.mikyu.jms;

import javax.naming.Context;
import javax.naming.Name;
import javax.naming.RefAddr;
import javax.naming.Reference;
import javax.naming.spi.ObjectFactory;
import java.util.Hashtable;

/** Rebuilds a {@link MikyuConnectionFactory} or {@link MikyuXAConnectionFactory} from its JNDI {@link Reference}. */
public final class ConnectionFactoryObjectFactory implements ObjectFactory {

    @Override
    public Object getObjectInstance(Object obj, Name name, Context nameCtx, Hashtable<?, ?> environment) {
        if (obj instanceof Reference ref && (MikyuConnectionFactory.class.getName().equals(ref.getClassName())
                || MikyuXAConnectionFactory.class.getName().equals(ref.getClassName()))) {
            RefAddr addr = ref.get(MikyuConnectionFactory.URL_ADDRESS);
            if (addr != null && addr.getContent() instanceof String url) {
                return MikyuXAConnectionFactory.class.getName().equals(ref.getClassName())
                        ? new MikyuXAConnectionFactory(url) : new MikyuConnectionFactory(url);
            }
        }
        return null;
    }
}
