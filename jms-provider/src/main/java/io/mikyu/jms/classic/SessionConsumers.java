package io.mikyu.jms.classic;

import io.mikyu.engine.LogQueue;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.security.Permission;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.MikyuQueue;
import io.mikyu.jms.TemporaryDestinations;
import io.mikyu.jms.delivery.LogCursorSource;
import io.mikyu.jms.delivery.MessageSource;
import io.mikyu.jms.delivery.TaskQueueSource;
import io.mikyu.jms.metrics.JmsMetrics;
import io.mikyu.selector.Selector;
import io.mikyu.selector.SelectorSyntaxException;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Makes and keeps one session's consumers and browsers: the checks of destination, permission and selector, and
 * the engine source each reads (a task queue, a topic cursor, a subscription's shared group). The session's
 * interface methods check its state and domain, then come here.
 */
final class SessionConsumers {

    private final MikyuSession session;
    private final MikyuConnection connection;
    private final Subscriptions subscriptions;
    private final List<MikyuMessageConsumer> consumers = new CopyOnWriteArrayList<>();
    private final List<MikyuQueueBrowser> browsers = new CopyOnWriteArrayList<>();

    SessionConsumers(MikyuSession session) {
        this.session = session;
        this.connection = session.connection;
        this.subscriptions = new Subscriptions(connection);
    }

    /** The open consumers, which the delivery thread walks. */
    List<MikyuMessageConsumer> consumers() {
        return consumers;
    }

    List<MikyuQueueBrowser> browsers() {
        return browsers;
    }

    MessageConsumer consumer(Destination destination, String messageSelector, boolean noLocal) throws JMSException {
        MikyuDestination d = session.resolve(destination);
        session.checkUsable(d);
        connection.authorize(Permission.CONSUME, d);
        Selector selector = compileSelector(messageSelector);
        if (TemporaryDestinations.isTemporaryName(d.name()) && !connection.owns(d)) {
            throw new InvalidDestinationException("temporary destination " + d.name()
                    + " can only be consumed by the connection that created it");
        }
        MessageSource source;
        try {
            if (d.isQueue()) {
                source = new TaskQueueSource(queueForConsumer(d.name()), selector.isMatchAll() ? null : selector);
            } else {
                LogQueue log = connection.logQueue(d.name());
                source = new LogCursorSource(log, subscriptions.topicFilter(selector, noLocal),
                        connection.options.maxAttemptsOf(d.name()));
            }
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
        return add(d, selector, noLocal, source, null);
    }

    /** A consumer's or browser's selector; one that does not compile is the JMS {@link InvalidSelectorException}. */
    private static Selector compileSelector(String messageSelector) throws InvalidSelectorException {
        try {
            return Selector.compile(messageSelector);
        } catch (SelectorSyntaxException e) {
            throw JmsErrors.with(new InvalidSelectorException(e.getMessage()), e);
        }
    }

    private TaskQueue queueForConsumer(String name) {
        // "<queue>/dlq" names a dead-letter queue, which exists with its queue and is never created here.
        return name.contains("/") ? connection.engine.taskQueue(name) : connection.taskQueue(name);
    }

    private MikyuMessageConsumer add(MikyuDestination d, Selector selector, boolean noLocal, MessageSource source,
                                     String subscription) throws JMSException {
        MikyuMessageConsumer c = new MikyuMessageConsumer(session, d, selector, noLocal, source, subscription);
        consumers.add(c);
        JmsMetrics.GLOBAL.consumers.incrementAndGet();
        return c;
    }

    TopicSubscriber durable(Topic topic, String name, String messageSelector, boolean noLocal) throws JMSException {
        MikyuDestination d = topicOf(topic);
        Subscriptions.checkName(name);
        Selector selector = compileSelector(messageSelector);
        return subscriptions.durable(d, name, selector, noLocal,
                (source, group) -> add(d, selector, noLocal, source, group));
    }

    MessageConsumer shared(Topic topic, String name, String messageSelector, boolean durable) throws JMSException {
        MikyuDestination d = topicOf(topic);
        Subscriptions.checkName(name);
        Selector selector = compileSelector(messageSelector);
        return subscriptions.shared(d, name, selector, durable,
                (source, group) -> add(d, selector, false, source, group));
    }

    private MikyuDestination topicOf(Topic topic) throws JMSException {
        MikyuDestination d = session.resolve(topic);
        if (d.isQueue()) {
            throw new InvalidDestinationException(d + " is not a topic");
        }
        session.checkUsable(d);
        connection.authorize(Permission.CONSUME, d);
        return d;
    }

    void unsubscribe(String name) throws JMSException {
        Subscriptions.checkName(name);
        session.acks.flush();
        subscriptions.unsubscribe(name, this::hasUnackedFrom);
    }

    private boolean hasUnackedFrom(String group) {
        TransactionWork w = session.currentWork();
        if (w != null && w.consumedFrom(group)) {
            return true;
        }
        return session.acks.unackedFrom(group);
    }

    QueueBrowser browser(Queue queue, String messageSelector) throws JMSException {
        MikyuDestination d = session.resolve(queue);
        if (!d.isQueue()) {
            throw new InvalidDestinationException(d + " is not a queue");
        }
        session.checkUsable(d);
        connection.authorize(Permission.CONSUME, d);
        Selector selector = compileSelector(messageSelector);
        TaskQueue q;
        try {
            q = queueForConsumer(d.name());
        } catch (RuntimeException e) {
            throw JmsErrors.of(e);
        }
        MikyuQueueBrowser b = new MikyuQueueBrowser(session, (MikyuQueue) d, selector, q);
        browsers.add(b);
        return b;
    }

    void browserClosed(MikyuQueueBrowser b) {
        browsers.remove(b);
    }

    void consumerClosed(MikyuMessageConsumer c) {
        if (consumers.remove(c)) {
            JmsMetrics.GLOBAL.consumers.decrementAndGet();
        }
    }

    boolean hasConsumerOn(MikyuDestination d) {
        for (MikyuMessageConsumer c : consumers) {
            if (c.destination().equals(d)) {
                return true;
            }
        }
        return false;
    }
}
