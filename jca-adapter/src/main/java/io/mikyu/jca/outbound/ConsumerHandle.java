package io.mikyu.jca.outbound;

import io.mikyu.jms.context.ConditionalReceiver;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.Queue;
import jakarta.jms.QueueReceiver;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Predicate;

/**
 * A consumer of a session handle: receives in the session's transaction (a locally transacted session begins its
 * local transaction first); message listeners are refused (Jakarta Messaging 3.1 §12.2: message-driven beans
 * receive asynchronously). Closed with its session or by the pool's cleanup, which gives prefetched messages back.
 */
final class ConsumerHandle implements QueueReceiver, TopicSubscriber, ConditionalReceiver {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerHandle.class);

    private final SessionHandle session;
    private final MessageConsumer physical;
    private volatile boolean closed;

    ConsumerHandle(SessionHandle session, MessageConsumer physical) {
        this.session = session;
        this.physical = physical;
    }

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return physical.getMessageSelector();
    }

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        throw new IllegalStateException("MessageConsumer.getMessageListener is not allowed in a Jakarta EE "
                + "container (Jakarta Messaging 3.1 §12.2)");
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        throw new IllegalStateException("MessageConsumer.setMessageListener is not allowed in a Jakarta EE "
                + "container (Jakarta Messaging 3.1 §12.2): receive asynchronously with a message-driven bean");
    }

    @Override
    public Message receive() throws JMSException {
        checkOpen();
        session.beforeWork();
        return physical.receive();
    }

    @Override
    public Message receive(long timeout) throws JMSException {
        checkOpen();
        session.beforeWork();
        return physical.receive(timeout);
    }

    @Override
    public Message receiveNoWait() throws JMSException {
        checkOpen();
        session.beforeWork();
        return physical.receiveNoWait();
    }

    /** For {@code JMSConsumer.receiveBody} of a JMSContext made by a pooled factory. */
    @Override
    public Message receive(long timeout, Predicate<? super Message> accept) throws JMSException {
        checkOpen();
        session.beforeWork();
        if (physical instanceof ConditionalReceiver r) {
            return r.receive(timeout, accept);
        }
        return timeout < 0 ? physical.receiveNoWait() : physical.receive(timeout);
    }

    @Override
    public Queue getQueue() throws JMSException {
        checkOpen();
        return ((QueueReceiver) physical).getQueue();
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        return ((TopicSubscriber) physical).getTopic();
    }

    @Override
    public boolean getNoLocal() throws JMSException {
        checkOpen();
        return ((TopicSubscriber) physical).getNoLocal();
    }

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        closed = true;
        session.consumerClosed(this);
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
            LOG.debug("closing a consumer failed", e);
        }
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("the consumer is closed");
        }
        session.checkOpen();
    }
}
