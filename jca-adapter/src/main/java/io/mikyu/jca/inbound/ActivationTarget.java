package io.mikyu.jca.inbound;

import io.mikyu.jca.outbound.MikyuPooledConnectionFactory;
import io.mikyu.jca.settings.ConnectionSettings;
import io.mikyu.jca.settings.SettingsLayer;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.MikyuQueue;
import io.mikyu.jms.MikyuTopic;
import jakarta.jms.Destination;
import jakarta.jms.Queue;
import jakarta.jms.Topic;
import jakarta.resource.spi.InvalidPropertyException;

import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * An activation spec resolved: where to connect (the adapter's settings, or a looked-up connection factory's, under
 * the spec's overrides), the destination (by name, or looked up), and how to subscribe. Done at each connection
 * attempt, since JNDI names may not be bound yet when the endpoint is activated.
 *
 * @param sessions    how many sessions deliver: {@code maxSession} for a queue or a shared subscription, one for an
 *                    unshared subscription (more would each get every message, or be refused)
 * @param shared      a shared subscription: asked for ({@code shareSubscriptions}), or durable without a client ID
 *                    (an unshared durable subscription needs one; Jakarta Messaging leaves the choice open)
 */
record ActivationTarget(ConnectionSettings settings, Destination destination, boolean topic, boolean durable,
                        boolean shared, String subscriptionName, String selector, int sessions, boolean dupsOk) {

    static ActivationTarget resolve(MikyuActivationSpec spec) throws NamingException, InvalidPropertyException {
        SettingsLayer factory = null;
        if (!MikyuActivationSpec.isBlank(spec.getConnectionFactoryLookup())) {
            factory = connectionFactory(spec.getConnectionFactoryLookup());
        }
        ConnectionSettings settings;
        try {
            settings = spec.settings(factory);
        } catch (IllegalArgumentException e) {
            throw new InvalidPropertyException(e.getMessage(), e);
        }
        String type = spec.declaredType();
        Destination destination;
        boolean topic;
        if (MikyuActivationSpec.isBlank(spec.getDestinationLookup())) {
            // a name, or the text form of a destination ("queue://orders"): Open Liberty resolves a lookup itself
            // and passes the administered object's toString() as destination
            String name = spec.getDestination().trim();
            topic = MikyuActivationSpec.TOPIC.equals(type);
            if (name.startsWith("queue://") || name.startsWith("topic://")) {
                boolean named = name.startsWith("topic://");
                if (type != null && named != topic) {
                    throw new InvalidPropertyException("destination '" + name + "' is a " + (named ? "topic" : "queue")
                            + ", but destinationType says " + type);
                }
                topic = named;
                name = name.substring("queue://".length());
            }
            destination = topic ? new MikyuTopic(name) : new MikyuQueue(name);
        } else {
            Object found = lookup(spec.getDestinationLookup());
            if (found instanceof Topic && (!(found instanceof Queue) || MikyuActivationSpec.TOPIC.equals(type))) {
                topic = true;
            } else if (found instanceof Queue) {
                topic = false;
            } else {
                throw new InvalidPropertyException("destinationLookup '" + spec.getDestinationLookup() + "' names "
                        + found + ", not a jakarta.jms.Queue or Topic");
            }
            if (type != null && topic != MikyuActivationSpec.TOPIC.equals(type)) {
                throw new InvalidPropertyException("destinationLookup '" + spec.getDestinationLookup() + "' is a "
                        + (topic ? "topic" : "queue") + ", but destinationType says " + type);
            }
            destination = (Destination) found;
        }
        boolean durable = topic && spec.durable();
        boolean shared = topic && (Boolean.TRUE.equals(spec.getShareSubscriptions())
                || (durable && settings.options().clientId() == null));
        int sessions = !topic || shared ? spec.getMaxSession() : 1;
        String selector = MikyuActivationSpec.isBlank(spec.getMessageSelector()) ? null : spec.getMessageSelector();
        return new ActivationTarget(settings, destination, topic, durable, shared, spec.getSubscriptionName(),
                selector, sessions, Boolean.TRUE.equals(spec.dupsOk()));
    }

    /** A looked-up connection factory as the settings it stands for: a pool's, or the provider's URL. */
    private static SettingsLayer connectionFactory(String name) throws NamingException, InvalidPropertyException {
        Object found = lookup(name);
        if (found instanceof MikyuPooledConnectionFactory pooled) {
            ConnectionSettings s = pooled.managedConnectionFactory().settings();
            return SettingsLayer.of(s.url(), s.user(), s.password(), java.util.Map.of());
        }
        if (found instanceof MikyuConnectionFactory plain) {
            return SettingsLayer.ofUrl(plain.getURL());
        }
        throw new InvalidPropertyException("connectionFactoryLookup '" + name + "' names " + found
                + ", not a mikyu connection factory");
    }

    private static Object lookup(String name) throws NamingException {
        InitialContext context = new InitialContext();
        try {
            return context.lookup(name.trim());
        } finally {
            context.close();
        }
    }

    String describe() {
        return (topic ? "topic " : "queue ") + destination + (durable ? " durable" : "")
                + (shared ? " shared" : "") + (subscriptionName != null && topic ? " subscription " + subscriptionName
                : "") + " at " + settings.describe();
    }
}
