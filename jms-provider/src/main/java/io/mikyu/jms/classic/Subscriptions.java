package io.mikyu.jms.classic;

import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskFilter;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.delivery.MessageSource;
import io.mikyu.jms.delivery.SharedGroupSource;
import io.mikyu.selector.NoLocalFilter;
import io.mikyu.selector.Selector;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Topic subscriptions of one connection: durable, shared and shared durable subscriptions are shared groups of the
 * topic's log queue, named by {@link SubscriptionNames}, with the topic, selector and noLocal kept as the group's
 * attributes. The JMS rules that span consumers and connections (one active consumer of an unshared durable
 * subscription, a shared non-durable subscription that goes with its last consumer, names that may not be both
 * shared and unshared) are kept here, under the provider registry's lock; across processes, by claims, and a
 * subscription found idle is deleted in one step with the check that nobody claims it
 * ({@link ProviderRegistry#deleteUnlessUsed}).
 */
final class Subscriptions {

    private static final Logger LOG = LoggerFactory.getLogger(Subscriptions.class);

    /**
     * Runs with a group's name once this provider has found the subscription idle and is about to delete it, before
     * it asks the engine to: where tests let another client's consumer come in.
     */
    static volatile Consumer<String> beforeDelete = group -> {
    };

    /** Makes the session's consumer of a subscription from its source and group name. */
    @FunctionalInterface
    interface ConsumerFactory<C> {
        C create(MessageSource source, String group) throws JMSException;
    }

    private final MikyuConnection connection;

    Subscriptions(MikyuConnection connection) {
        this.connection = connection;
    }

    /** A topic consumer's filter: its selector and, for noLocal, not this connection's messages (text, too). */
    TaskFilter topicFilter(Selector selector, boolean noLocal) {
        if (!noLocal) {
            return selector.isMatchAll() ? null : selector;
        }
        return new NoLocalFilter(connection.id, selector);
    }

    /**
     * The consumer of unshared durable subscription {@code name} (checked with {@link #checkName}), which must have
     * no other active consumer.
     */
    <C> C durable(MikyuDestination topic, String name, Selector selector, boolean noLocal, ConsumerFactory<C> consumer)
            throws JMSException {
        String clientId = connection.clientIdForUse();
        if (clientId == null) {
            throw new IllegalStateException("an unshared durable subscription needs a client ID: set one on the "
                    + "connection (or in the connection URL) first");
        }
        String group = SubscriptionNames.durable(clientId, name);
        ProviderRegistry registry = connection.registry;
        synchronized (registry) {
            if (findGroup(SubscriptionNames.sharedDurable(clientId, name)) != null) {
                throw new JMSException("'" + name + "' is a shared durable subscription of client '" + clientId
                        + "'; an unshared one cannot have the same name");
            }
            if (!registry.activate(group)) {
                throw new IllegalStateException("durable subscription '" + name + "' of client '" + clientId
                        + "' already has an active consumer");
            }
            try {
                SharedGroup g = group(topic, group, selector, noLocal, true);
                return consumer.create(new SharedGroupSource(g, () -> registry.deactivate(group)), group);
            } catch (JMSException | RuntimeException e) {
                registry.deactivate(group);
                throw e;
            }
        }
    }

    /**
     * A consumer of shared subscription {@code name} ({@code durable} or not; checked with {@link #checkName}),
     * joining its other consumers; a non-durable one is deleted when its last consumer closes.
     */
    <C> C shared(MikyuDestination topic, String name, Selector selector, boolean durable, ConsumerFactory<C> consumer)
            throws JMSException {
        String clientId = connection.clientIdForUse();
        String group = durable ? SubscriptionNames.sharedDurable(clientId, name)
                : SubscriptionNames.shared(clientId, name);
        ProviderRegistry registry = connection.registry;
        synchronized (registry) {
            if (durable && clientId != null && (registry.isActive(SubscriptionNames.durable(clientId, name))
                    || findGroup(SubscriptionNames.durable(clientId, name)) != null)) {
                throw new JMSException("'" + name + "' is an unshared durable subscription of client '" + clientId
                        + "'; a shared one cannot have the same name");
            }
            // Joined before the group is opened: a consumer elsewhere that leaves meanwhile sees this one and
            // keeps the subscription.
            registry.join(group);
            SharedGroup g;
            try {
                g = group(topic, group, selector, false, registry.users(group) == 1);
            } catch (JMSException | RuntimeException e) {
                registry.leave(group);
                throw e;
            }
            Runnable onClose = () -> {
                synchronized (registry) {
                    if (registry.leave(group) && !durable) {
                        beforeDelete.accept(group);
                        deleteQuietly(topic.name(), group, registry);
                    }
                }
            };
            return consumer.create(new SharedGroupSource(g, onClose), group);
        }
    }

    /**
     * Deletes durable subscription {@code name} (checked with {@link #checkName}) of this connection's client,
     * unshared or shared; refused while a consumer is active on it or {@code heldUnacked} says the session holds
     * its messages unacknowledged.
     */
    void unsubscribe(String name, Predicate<String> heldUnacked) throws JMSException {
        String clientId = connection.clientIdForUse();
        List<String> candidates = new ArrayList<>();
        if (clientId != null) {
            candidates.add(SubscriptionNames.durable(clientId, name));
        }
        candidates.add(SubscriptionNames.sharedDurable(clientId, name));
        ProviderRegistry registry = connection.registry;
        try {
            synchronized (registry) {
                for (String group : candidates) {
                    String topic = findGroup(group);
                    if (topic == null) {
                        continue;
                    }
                    if (registry.isActive(group) || heldUnacked.test(group)) {
                        throw new IllegalStateException("durable subscription '" + name + "' has an active "
                                + "consumer or unacknowledged messages in a transaction");
                    }
                    beforeDelete.accept(group);
                    if (registry.deleteUnlessUsed(topic, group)) {
                        return;
                    }
                    if (registry.isActive(group)) {
                        // a consumer, maybe of another process, joined since the check above
                        throw new IllegalStateException("durable subscription '" + name + "' has an active "
                                + "consumer");
                    }
                }
            }
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
        throw new InvalidDestinationException("there is no durable subscription '" + name + "'"
                + (clientId == null ? "" : " of client '" + clientId + "'"));
    }

    /**
     * The shared group of a subscription, created at the topic's end if new. A subscription's topic, selector and
     * noLocal are part of what it is: if they changed, the old subscription is deleted and a new one made (when
     * {@code mayReplace}; else {@link JMSException}, as when a shared subscription in use is asked to change).
     */
    private SharedGroup group(MikyuDestination topic, String group, Selector selector, boolean noLocal,
                              boolean mayReplace) throws JMSException {
        Map<String, String> attrs = Map.of("jms.topic", topic.name(), "jms.selector", selector.source(),
                "jms.noLocal", Boolean.toString(noLocal));
        try {
            String existingTopic = findGroup(group);
            if (existingTopic != null) {
                SharedGroup existing = connection.logQueue(existingTopic).sharedGroup(group, config(attrs));
                if (!existingTopic.equals(topic.name()) || !attrs.equals(existing.config().attributes())) {
                    if (!mayReplace) {
                        throw new JMSException("shared subscription " + group + " is in use with another topic or "
                                + "selector");
                    }
                    connection.logQueue(existingTopic).deleteGroup(group);
                }
            }
            return connection.logQueue(topic.name()).sharedGroup(group, config(attrs),
                    topicFilter(selector, noLocal), OffsetReset.latest());
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
    }

    private SharedGroupConfig config(Map<String, String> attrs) {
        SharedGroupConfig dflt = SharedGroupConfig.defaults();
        java.time.Duration delay = connection.options.redeliveryDelayOf(attrs.get("jms.topic"));
        return dflt.withAttributes(attrs).withRedelivery(dflt.redelivery()
                .withMaxAttempts(connection.options.maxAttemptsOf(attrs.get("jms.topic")))
                .withDefaultLease(connection.options.lease())
                .withBackoff(delay, 1.0, delay));
    }

    /** The topic (log queue) that has a group of this name, or null. */
    private String findGroup(String group) {
        for (String log : connection.engine.list(QueueKind.LOG)) {
            if (connection.logQueue(log).groups().contains(group)) {
                return log;
            }
        }
        return null;
    }

    /** Deletes the group unless a consumer (of any process) joined it since its last one here left. */
    private static void deleteQuietly(String topic, String group, ProviderRegistry registry) {
        try {
            registry.deleteUnlessUsed(topic, group);
        } catch (RuntimeException e) {
            LOG.debug("deleting subscription {} of {} failed", group, topic, e);
        }
    }

    /** A subscription name must be given: checked first, before anything else about the call. */
    static void checkName(String name) throws JMSException {
        if (name == null || name.isEmpty()) {
            throw new InvalidDestinationException("a subscription name must not be null or empty");
        }
    }
}
