package io.mikyu.jms;

import jakarta.jms.JMSException;
import jakarta.jms.TemporaryQueue;

/** A temporary queue: consumed only through the connection that made it; deleted with it. */
public final class MikyuTemporaryQueue extends MikyuQueue implements TemporaryQueue {

    private static final long serialVersionUID = 1L;

    /** Null when the destination was read from a message (a reply-to): such a copy cannot delete it. */
    private final transient TemporaryDestinations owner;

    public MikyuTemporaryQueue(String name, TemporaryDestinations owner) {
        super(name);
        this.owner = owner;
    }

    public TemporaryDestinations owner() {
        return owner;
    }

    @Override
    public void delete() throws JMSException {
        if (owner == null) {
            throw new jakarta.jms.IllegalStateException("only the connection that created temporary queue "
                    + name() + " can delete it");
        }
        owner.deleteTemporary(this);
    }
}
