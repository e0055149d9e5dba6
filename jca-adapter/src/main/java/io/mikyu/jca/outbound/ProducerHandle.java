package io.mikyu.jca.outbound;

import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueSender;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A producer of a session handle: sends in the session's transaction (a locally transacted session begins its
 * local transaction first). Asynchronous sends are refused (Jakarta Messaging 3.1 §12.2).
 */
final class ProducerHandle implements QueueSender, TopicPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerHandle.class);

    private final SessionHandle session;
    private final MessageProducer physical;
    private volatile boolean closed;

    ProducerHandle(SessionHandle session, MessageProducer physical) {
        this.session = session;
        this.physical = physical;
    }

    // ------------------------------------------------------------------------------------------------ sends

    @Override
    public void send(Message message) throws JMSException {
        checkOpen();
        session.beforeWork();
        physical.send(message);
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive) throws JMSException {
        checkOpen();
        session.beforeWork();
        physical.send(message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void send(Destination destination, Message message) throws JMSException {
        checkOpen();
        session.beforeWork();
        physical.send(destination, message);
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive)
            throws JMSException {
        checkOpen();
        session.beforeWork();
        physical.send(destination, message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void send(Message message, CompletionListener completionListener) throws JMSException {
        throw asyncRefused();
    }

    @Override
    public void send(Message message, int deliveryMode, int priority, long timeToLive,
                     CompletionListener completionListener) throws JMSException {
        throw asyncRefused();
    }

    @Override
    public void send(Destination destination, Message message, CompletionListener completionListener)
            throws JMSException {
        throw asyncRefused();
    }

    @Override
    public void send(Destination destination, Message message, int deliveryMode, int priority, long timeToLive,
                     CompletionListener completionListener) throws JMSException {
        throw asyncRefused();
    }

    private JMSException asyncRefused() throws JMSException {
        checkOpen();
        return new IllegalStateException("an asynchronous send (with a CompletionListener) is not allowed in a "
                + "Jakarta EE container (Jakarta Messaging 3.1 §12.2)");
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

    // ------------------------------------------------------------------------------------------------ settings

    @Override
    public void setDisableMessageID(boolean value) throws JMSException {
        checkOpen();
        physical.setDisableMessageID(value);
    }

    @Override
    public boolean getDisableMessageID() throws JMSException {
        checkOpen();
        return physical.getDisableMessageID();
    }

    @Override
    public void setDisableMessageTimestamp(boolean value) throws JMSException {
        checkOpen();
        physical.setDisableMessageTimestamp(value);
    }

    @Override
    public boolean getDisableMessageTimestamp() throws JMSException {
        checkOpen();
        return physical.getDisableMessageTimestamp();
    }

    @Override
    public void setDeliveryMode(int deliveryMode) throws JMSException {
        checkOpen();
        physical.setDeliveryMode(deliveryMode);
    }

    @Override
    public int getDeliveryMode() throws JMSException {
        checkOpen();
        return physical.getDeliveryMode();
    }

    @Override
    public void setPriority(int defaultPriority) throws JMSException {
        checkOpen();
        physical.setPriority(defaultPriority);
    }

    @Override
    public int getPriority() throws JMSException {
        checkOpen();
        return physical.getPriority();
    }

    @Override
    public void setTimeToLive(long timeToLive) throws JMSException {
        checkOpen();
        physical.setTimeToLive(timeToLive);
    }

    @Override
    public long getTimeToLive() throws JMSException {
        checkOpen();
        return physical.getTimeToLive();
    }

    @Override
    public void setDeliveryDelay(long deliveryDelay) throws JMSException {
        checkOpen();
        physical.setDeliveryDelay(deliveryDelay);
    }

    @Override
    public long getDeliveryDelay() throws JMSException {
        checkOpen();
        return physical.getDeliveryDelay();
    }

    @Override
    public Destination getDestination() throws JMSException {
        checkOpen();
        return physical.getDestination();
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return ((QueueSender) physical).getQueue();
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        return ((TopicPublisher) physical).getTopic();
    }

    // ------------------------------------------------------------------------------------------------ close

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        closed = true;
        session.producerClosed(this);
        physical.close();
    }

    void closeQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            physical.close();
        } catch (JMSException | RuntimeException e) {
            LOG.debug("closing a producer failed", e);
        }
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("the producer is closed");
        }
        session.checkOpen();
    }
}
