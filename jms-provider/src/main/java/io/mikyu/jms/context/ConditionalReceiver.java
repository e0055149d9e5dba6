package io.mikyu.jms.context;

import java.util.function.Predicate;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

/**
 * What {@code JMSConsumer.receiveBody} needs from a classic {@link jakarta.jms.MessageConsumer} beyond the standard
 * interface; mikyu's consumer implements it, a foreign one need not.
 *
 * <p>Why: when the body of the next message does not have the requested type, the specification wants the
 * failed call to have no effect in AUTO_ACKNOWLEDGE and DUPS_OK_ACKNOWLEDGE sessions: the same message is delivered
 * again before any later one, and that is <em>not</em> a redelivery (no {@code JMSRedelivered}, no
 * {@code JMSXDeliveryCount} increment). A standard {@code receive()} in those modes has acknowledged the message
 * before it returns, so only the consumer itself can decline it in time.
 */
public interface ConditionalReceiver {

    /**
     * Receives as {@code receive(timeout)} does ({@code timeout} 0: wait indefinitely; negative: do not wait, as
     * {@code receiveNoWait()}), and then asks {@code accept}. The message is returned whatever the answer. When
     * {@code accept} answers {@code false} and the session acknowledges automatically (AUTO_ACKNOWLEDGE,
     * DUPS_OK_ACKNOWLEDGE), the message is not acknowledged and stays this consumer's next message, not marked
     * redelivered and with no delivery attempt counted. In CLIENT_ACKNOWLEDGE and transacted sessions the answer
     * changes nothing: the message counts as delivered as usual.
     *
     * @return the message, or {@code null} on timeout or when the consumer is closed concurrently
     */
    Message receive(long timeout, Predicate<? super Message> accept) throws JMSException;
}
