package io.mikyu.jms.classic;

import io.mikyu.engine.security.Permission;
import io.mikyu.engine.Headers;
import io.mikyu.engine.SharedGroup;
import io.mikyu.jms.MikyuDestination;
import io.mikyu.jms.message.EncodedMessage;
import io.mikyu.jms.message.MikyuMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.Queue;
import jakarta.jms.QueueSender;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;

import java.nio.charset.StandardCharsets;

/**
 * A producer: stamps the JMS headers on the message (on the application's object too, as the spec requires),
 * encodes it once and hands it to its session, which enqueues (queue), appends (topic) or buffers (transacted).
 */
public final class MikyuMessageProducer implements QueueSender, TopicPublisher {

    private final MikyuSession session;
    private final MikyuDestination destination;
    private volatile boolean closed;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;
    private boolean disableMessageId;
    private boolean disableTimestamp;

    MikyuMessageProducer(MikyuSession session, MikyuDestination destination) {
        this.session = session;
        this.destination = destination;
    }

    // ------------------------------------------------------------------------------------------------ options

    @Override
    public void setDisableMessageID(boolean value) throws JMSException {
        checkOpen();
        disableMessageId = value;
    }

    @Override
    public boolean getDisableMessageID() throws JMSException {
        checkOpen();
        return disableMessageId;
    }

    @Override
    public void setDisableMessageTimestamp(boolean value) throws JMSException {
        checkOpen();
        disableTimestamp = value;
    }

    @Override
    public boolean getDisableMessageTimestamp() throws JMSException {
        checkOpen();
        return disableTimestamp;
    }

    @Override
    public void setDeliveryMode(int deliveryMode) throws JMSException {
        checkOpen();
        checkDeliveryMode(deliveryMode);
        this.deliveryMode = deliveryMode;
    }

    @Override
    public int getDeliveryMode() throws JMSException {
        checkOpen();
        return deliveryMode;
    }

    @Override
    public void setPriority(int priority) throws JMSException {
        checkOpen();
        checkPriority(priority);
        this.priority = priority;
    }

    @Override
    public int getPriority() throws JMSException {
        checkOpen();
        return priority;
    }

    @Override
    public void setTimeToLive(long timeToLive) throws JMSException {
        checkOpen();
        this.timeToLive = timeToLive;
    }

    @Override
    public long getTimeToLive() throws JMSException {
        checkOpen();
        return timeToLive;
    }

    @Override
    public void setDeliveryDelay(long deliveryDelay) throws JMSException {
        checkOpen();
        this.deliveryDelay = deliveryDelay;
    }

    @Override
    public long getDeliveryDelay() throws JMSException {
        checkOpen();
        return deliveryDelay;
    }

    @Override
    public Destination getDestination() throws JMSException {
        checkOpen();
        return destination;
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return destination instanceof Queue q ? q : null;
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        return destination instanceof Topic t ? t : null;
    }

    private static void checkDeliveryMode(int mode) throws JMSException {
        if (mode != DeliveryMode.PERSISTENT && mode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("invalid delivery mode " + mode + ": use DeliveryMode.PERSISTENT or "
                    + "NON_PERSISTENT");
        }
    }

    private static void checkPriority(int priority) throws JMSException {
        if (priority < 0 || priority > 9) {
            throw new JMSException("invalid priority " + priority + ": use 0-9");
        }
    }

    // ------------------------------------------------------------------------------------------------ send

    @Override
    public void send(Message message) throws JMSException {
        send(message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        checkOpen();
        if (destination == null) {
            throw new UnsupportedOperationException("this producer has no destination: use send(destination, ...)");
        }
        doSend(destination, message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Destination destination, Message message) throws JMSException {
        send(destination, message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        checkOpen();
        doSend(target(destination), message, deliveryMode, priority, timeToLive, null);
    }

    @Override
    public void send(Message message, CompletionListener listener) throws JMSException {
        send(message, deliveryMode, priority, timeToLive, listener);
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive, CompletionListener listener)
            throws JMSException {
        checkOpen();
        if (destination == null) {
            throw new UnsupportedOperationException("this producer has no destination: use send(destination, ...)");
        }
        doSend(destination, message, deliveryMode, priority, timeToLive, checkListener(listener));
    }

    @Override
    public void send(Destination destination, Message message, CompletionListener listener) throws JMSException {
        send(destination, message, deliveryMode, priority, timeToLive, listener);
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive,
                     CompletionListener listener) throws JMSException {
        checkOpen();
        doSend(target(destination), message, deliveryMode, priority, timeToLive, checkListener(listener));
    }

    @Override
    public void send(Queue queue, Message message) throws JMSException {
        send((Destination) queue, message);
    }

    @Override
    public void send(Queue queue, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        send((Destination) queue, message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void publish(Message message) throws JMSException {
        send(message);
    }

    @Override
    public void publish(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        send(message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void publish(Topic topic, Message message) throws JMSException {
        send(topic, message);
    }

    @Override
    public void publish(Topic topic, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        send(topic, message, deliveryMode, priority, timeToLive);
    }

    private MikyuDestination target(Destination d) throws JMSException {
        if (destination != null) {
            throw new UnsupportedOperationException("this producer sends to " + destination
                    + ": use send(message, ...)");
        }
        if (d == null) {
            throw new InvalidDestinationException("the destination is null");
        }
        return session.resolve(d);
    }

    private static CompletionListener checkListener(CompletionListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("the CompletionListener is null");
        }
        return listener;
    }

    private void doSend(MikyuDestination d, Message message, int mode, int prio, long ttl,
                        CompletionListener listener) throws JMSException {
        if (message == null) {
            throw new MessageFormatException("the message is null");
        }
        checkDeliveryMode(mode);
        checkPriority(prio);
        session.checkUsable(d);
        MikyuConnection connection = session.connection;
        connection.authorize(Permission.PRODUCE, d);
        long now = System.currentTimeMillis();
        message.setJMSDestination(d);
        message.setJMSDeliveryMode(mode);
        message.setJMSPriority(prio);
        message.setJMSExpiration(ttl > 0 ? now + ttl : 0);
        message.setJMSDeliveryTime(now + Math.max(0, deliveryDelay));
        message.setJMSTimestamp(disableTimestamp ? 0 : now);
        message.setJMSMessageID(disableMessageId ? null : connection.nextMessageId());
        if (message instanceof MikyuMessage own) {
            own.setJMSRedelivered(false);
        }
        EncodedMessage encoded = session.codec.encode(message);
        if (!d.isQueue()) {
            encoded = withTopicHeaders(encoded, connection.id);
        }
        LargeMessages.Upload large = LargeMessages.prepare(session, d, message, encoded);
        if (large != null) {
            encoded = large.message();
        }
        boolean persistent = mode == DeliveryMode.PERSISTENT;
        if (listener == null) {
            session.sender.send(d, encoded, persistent, false, large);
            return;
        }
        EncodedMessage toSend = encoded;
        try {
            session.sender.sendAsync(() -> {
                Exception failure = null;
                try {
                    session.sender.send(d, toSend, persistent, true, large);
                } catch (JMSException | RuntimeException e) {
                    failure = e;
                }
                session.sender.complete(listener, message, failure);
            });
        } catch (JMSException | RuntimeException e) {
            if (large != null) {
                large.close(); // never sent: its body is an orphan
            }
            throw e;
        }
    }

    /** A topic record carries what shared groups schedule by, and its connection for noLocal subscribers. */
    private static EncodedMessage withTopicHeaders(EncodedMessage m, String connectionId) {
        Headers.Builder h = Headers.builder();
        for (Headers.Header header : m.headers().asList()) {
            h.add(header.name(), header.value());
        }
        if (m.priority() != Message.DEFAULT_PRIORITY) {
            h.add(SharedGroup.PRIORITY_HEADER, Integer.toString(m.priority()));
        }
        if (m.deliverAt() > System.currentTimeMillis()) {
            h.add(SharedGroup.DELIVER_AT_HEADER, Long.toString(m.deliverAt()));
        }
        if (m.expiresAt() > 0) {
            h.add(SharedGroup.EXPIRES_AT_HEADER, Long.toString(m.expiresAt()));
        }
        h.add(MikyuSession.CONNECTION_HEADER, connectionId.getBytes(StandardCharsets.US_ASCII));
        return new EncodedMessage(m.payload(), h.build(), m.priority(), m.deliverAt(), m.expiresAt(), m.timestamp());
    }

    // ------------------------------------------------------------------------------------------------ close

    @Override
    public void close() throws JMSException {
        if (CallbackThread.inCompletionCallbackOf(session)) {
            throw new IllegalStateException("a CompletionListener must not close its own producer");
        }
        markClosed();
        session.producerClosed(this);
    }

    void markClosed() {
        closed = true;
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("the producer is closed");
        }
        session.checkOpen();
    }

}
