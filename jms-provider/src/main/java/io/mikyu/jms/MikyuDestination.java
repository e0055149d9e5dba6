package io.mikyu.jms;

import jakarta.jms.Destination;

import javax.naming.NamingException;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.StringRefAddr;
import java.io.Serializable;
import java.util.Objects;

/**
 * A JMS destination of mikyu: a name, and a kind that says which engine queue it is — a {@link MikyuQueue} is the
 * task queue {@code task/<name>}, a {@link MikyuTopic} the log queue {@code log/<name>}. Administered objects are
 * {@link Serializable} and {@link Referenceable}, so any JNDI provider can bind them.
 */
public abstract sealed class MikyuDestination implements Destination, Serializable, Referenceable
        permits MikyuQueue, MikyuTopic {

    private static final long serialVersionUID = 1L;

    /** The JNDI reference's address type holding the destination's name. */
    static final String NAME_ADDRESS = "name";

    private final String name;

    MikyuDestination(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /** The queue's name in the engine. */
    public String name() {
        return name;
    }

    /** True for a queue (task queue), false for a topic (log queue). */
    public boolean isQueue() {
        return this instanceof MikyuQueue;
    }

    /** {@code queue://name} or {@code topic://name}: how the destination is stored in a message. */
    public abstract String uri();

    @Override
    public Reference getReference() throws NamingException {
        Reference ref = new Reference(getClass().getName(), DestinationObjectFactory.class.getName(), null);
        ref.add(new StringRefAddr(NAME_ADDRESS, name));
        return ref;
    }

    @Override
    public boolean equals(Object o) {
        // A temporary queue read back from a reply-to equals the one its connection made.
        return o instanceof MikyuDestination d && d.isQueue() == isQueue() && d.name.equals(name);
    }

    @Override
    public int hashCode() {
        return (isQueue() ? 31 : 17) * 31 + name.hashCode();
    }

    @Override
    public String toString() {
        return uri();
    }
}
