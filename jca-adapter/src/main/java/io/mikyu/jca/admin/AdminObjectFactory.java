package io.mikyu.jca.admin;

import javax.naming.Context;
import javax.naming.Name;
import javax.naming.RefAddr;
import javax.naming.Reference;
import javax.naming.spi.ObjectFactory;
import java.util.Hashtable;

/** Turns the JNDI reference of an {@link AdminQueue} or {@link AdminTopic} back into the object. */
public final class AdminObjectFactory implements ObjectFactory {

    @Override
    public Object getObjectInstance(Object obj, Name name, Context nameCtx, Hashtable<?, ?> environment) {
        if (!(obj instanceof Reference ref)) {
            return null;
        }
        RefAddr addr = ref.get(AdminDestination.NAME);
        String destination = addr == null ? null : (String) addr.getContent();
        if (AdminQueue.class.getName().equals(ref.getClassName())) {
            return new AdminQueue(destination);
        }
        if (AdminTopic.class.getName().equals(ref.getClassName())) {
            return new AdminTopic(destination);
        }
        return null;
    }
}
