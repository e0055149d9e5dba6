package io.mikyu.jms.message;

import jakarta.jms.JMSException;

/**
 * What {@link jakarta.jms.Message#acknowledge()} calls on a consumed message. The session sets one on each message
 * it delivers (see {@link MikyuMessage#setAcknowledger}); it decides what acknowledging means for its mode (ack all
 * messages delivered so far for CLIENT_ACKNOWLEDGE, nothing for transacted and auto modes) and throws
 * {@link jakarta.jms.IllegalStateException} when it is closed. A message without an acknowledger ignores the call.
 */
@FunctionalInterface
public interface MessageAcknowledger {

    void acknowledge(MikyuMessage message) throws JMSException;
}
