package io.mikyu.jca.admin;

import jakarta.resource.Referenceable;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;

import javax.naming.Reference;
import javax.naming.StringRefAddr;
import java.io.Serializable;
import java.util.Objects;

/**
 * An administered destination the server binds in JNDI: a JavaBean with one property, {@code name}, the name of
 * the mikyu queue or topic. The provider takes it as any {@link jakarta.jms.Queue} or {@link jakarta.jms.Topic}
 * (by its name), for sends, consumers, browsers and {@code JMSReplyTo} alike.
 */
public abstract sealed class AdminDestination implements Referenceable, Serializable, ResourceAdapterAssociation
        permits AdminQueue, AdminTopic {

    private static final long serialVersionUID = 1L;
    static final String NAME = "name";

    private String name;
    private transient ResourceAdapter adapter;
    private Reference reference;

    AdminDestination() {
    }

    AdminDestination(String name) {
        this.name = name;
    }

    /** The queue's or topic's name in mikyu. */
    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    /** The name, or an error a JMS method can pass on when none was configured. */
    String requireName() {
        if (name == null || name.isBlank()) {
            throw new java.lang.IllegalStateException("this mikyu administered " + kind() + " has no name: set its "
                    + "'name' property");
        }
        return name;
    }

    abstract String kind();

    @Override
    public ResourceAdapter getResourceAdapter() {
        return adapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) {
        this.adapter = ra;
    }

    @Override
    public void setReference(Reference reference) {
        this.reference = reference;
    }

    /** The reference the server set, else one {@link AdminObjectFactory} turns back into this object. */
    @Override
    public Reference getReference() {
        if (reference != null) {
            return reference;
        }
        Reference ref = new Reference(getClass().getName(), AdminObjectFactory.class.getName(), null);
        ref.add(new StringRefAddr(NAME, name));
        return ref;
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && Objects.equals(((AdminDestination) o).name, name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getClass(), name);
    }

    @Override
    public String toString() {
        return kind() + "://" + name;
    }
}
