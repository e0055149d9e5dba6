package io.mikyu.jms;

import javax.naming.Context;
import javax.naming.Name;
import javax.naming.RefAddr;
import javax.naming.Reference;
import javax.naming.spi.ObjectFactory;
import java.util.Hashtable;

/** Rebuilds a {@link MikyuQueue} or {@link MikyuTopic} from its JNDI {@link Reference}. */
public final class DestinationObjectFactory implements ObjectFactory {

    @Override
    public Object getObjectInstance(Object obj, Name name, Context nameCtx, Hashtable<?, ?> environment) {
        if (!(obj instanceof Reference ref)) {
            return null;
        }
        RefAddr addr = ref.get(MikyuDestination.NAME_ADDRESS);
        if (addr == null || !(addr.getContent() instanceof String destinationName)) {
            return null;
        }
        if (MikyuQueue.class.getName().equals(ref.getClassName())) {
            return new MikyuQueue(destinationName);
        }
        if (MikyuTopic.class.getName().equals(ref.getClassName())) {
            return new MikyuTopic(destinationName);
        }
        return null;
    }
}
