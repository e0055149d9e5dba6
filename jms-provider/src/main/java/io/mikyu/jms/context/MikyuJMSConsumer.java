package io.mikyu.jms.context;

import jakarta.jms.BytesMessage;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageListener;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;

/**
 * mikyu's {@link JMSConsumer}: a classic {@link MessageConsumer} of its context's session, with runtime exceptions,
 * {@code receiveBody}, and deliveries recorded for {@link JMSContext#acknowledge()}.
 *
 * <p>{@code receiveBody} and a body of the wrong type: the JMSConsumer javadoc wants a MessageFormatRuntimeException,
 * and in AUTO_ACKNOWLEDGE and DUPS_OK_ACKNOWLEDGE sessions the failed call must have no effect (the message comes
 * again, first, not as a redelivery); in CLIENT_ACKNOWLEDGE and transacted sessions the message counts as
 * delivered. A classic consumer implementing {@link ConditionalReceiver} (mikyu's) gives exactly that. Another one
 * has acknowledged the message by the time {@code receive} returns; the best the standard API offers then is
 * {@code Session.recover()}, which brings the message back only if the session had not acknowledged it yet (DUPS_OK
 * batches, lazy acknowledgement) and then as a redelivery. That fallback is what happens here for such consumers.
 */
final class MikyuJMSConsumer implements JMSConsumer {

    /** {@link ConditionalReceiver}'s timeout for "do not wait". */
    private static final long NO_WAIT = -1;

    private final MikyuJMSContext context;
    private final MessageConsumer consumer;
    private volatile MessageListener listener;
    private volatile boolean closed;

    MikyuJMSConsumer(MikyuJMSContext context, MessageConsumer consumer) {
        this.context = context;
        this.consumer = consumer;
    }

    @Override
    public String getMessageSelector() {
        checkOpen();
        try {
            return consumer.getMessageSelector();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    /** The listener the application set (the classic consumer holds a wrapper of it). */
    @Override
    public MessageListener getMessageListener() {
        checkOpen();
        return listener;
    }

    @Override
    public void setMessageListener(MessageListener listener) {
        checkOpen();
        try {
            consumer.setMessageListener(listener == null ? null : ContextCallbacks.deliveringTo(context, listener));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
        this.listener = listener;
    }

    @Override
    public Message receive() {
        checkOpen();
        try {
            return delivered(consumer.receive());
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public Message receive(long timeout) {
        checkOpen();
        try {
            return delivered(consumer.receive(timeout));
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public Message receiveNoWait() {
        checkOpen();
        try {
            return delivered(consumer.receiveNoWait());
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    /** Closing twice, or after the context closed, does nothing. */
    @Override
    public void close() {
        closed = true;
        try {
            consumer.close();
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    @Override
    public <T> T receiveBody(Class<T> c) {
        return receiveBody(c, 0);
    }

    /** A negative timeout does not wait (the javadoc gives it no meaning; waiting forever would be the worst). */
    @Override
    public <T> T receiveBody(Class<T> c, long timeout) {
        return receiveBodyWithin(c, timeout < 0 ? NO_WAIT : timeout);
    }

    @Override
    public <T> T receiveBodyNoWait(Class<T> c) {
        return receiveBodyWithin(c, NO_WAIT);
    }

    /** @param timeout 0 waits indefinitely, {@link #NO_WAIT} does not wait */
    private <T> T receiveBodyWithin(Class<T> c, long timeout) {
        checkOpen();
        try {
            Message message;
            if (consumer instanceof ConditionalReceiver receiver) {
                message = receiver.receive(timeout, m -> bodyOf(m, c) != null);
            } else {
                message = timeout == NO_WAIT ? consumer.receiveNoWait() : consumer.receive(timeout);
            }
            if (message == null) {
                return null;
            }
            delivered(message);
            T body = bodyOf(message, c);
            if (body == null) {
                if (!(consumer instanceof ConditionalReceiver)) {
                    recoverIfAutomatic();
                }
                throw new MessageFormatRuntimeException("receiveBody(" + (c == null ? "null" : c.getSimpleName())
                        + ") cannot return the body of " + describe(message));
            }
            return body;
        } catch (JMSException e) {
            throw RuntimeExceptions.translate(e);
        }
    }

    /**
     * The body as {@code c}, or {@code null} when {@code receiveBody} must refuse the message: it is not a
     * TextMessage, BytesMessage, MapMessage or ObjectMessage (StreamMessage and Message are excluded by the
     * javadoc), it has no body, its body is not an instance of {@code c}, or its object cannot be deserialized.
     */
    static <T> T bodyOf(Message message, Class<T> c) {
        if (c == null || !(message instanceof TextMessage || message instanceof BytesMessage
                || message instanceof MapMessage || message instanceof ObjectMessage)) {
            return null;
        }
        try {
            // getBody(Object.class) returns the body whatever its type, or null when there is none; read once,
            // because an ObjectMessage deserializes on every read.
            Object body = message.getBody(Object.class);
            return c.isInstance(body) ? c.cast(body) : null;
        } catch (JMSException e) {
            return null;
        }
    }

    /** The fallback of the class comment, for classic consumers without {@link ConditionalReceiver}. */
    private void recoverIfAutomatic() throws JMSException {
        int mode = context.sessionMode();
        if (mode == JMSContext.AUTO_ACKNOWLEDGE || mode == JMSContext.DUPS_OK_ACKNOWLEDGE) {
            context.session().recover();
        }
    }

    private Message delivered(Message message) {
        context.delivered(message);
        return message;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateRuntimeException("the JMSConsumer is closed");
        }
        context.checkOpen();
    }

    private static String describe(Message message) {
        if (message instanceof StreamMessage) {
            return "a StreamMessage (never returned by receiveBody)";
        }
        String kind = message instanceof TextMessage ? "TextMessage"
                : message instanceof BytesMessage ? "BytesMessage"
                : message instanceof MapMessage ? "MapMessage"
                : message instanceof ObjectMessage ? "ObjectMessage" : null;
        return kind == null ? "a Message without a body type (never returned by receiveBody)"
                : "a " + kind + " without a body of that type";
    }
}
