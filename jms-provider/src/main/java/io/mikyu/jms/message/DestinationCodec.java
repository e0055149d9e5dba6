package io.mikyu.jms.message;

import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Topic;

/**
 * Maps the destinations held in {@code JMSReplyTo} (and {@code JMSDestination}) to and from their stored text form,
 * {@code queue://name} or {@code topic://name}. The provider implements {@link #fromText} with its own destination
 * classes; {@link #toText} works by default for any {@link Queue} or {@link Topic}, including another provider's.
 */
public interface DestinationCodec {

    String QUEUE_PREFIX = "queue://";
    String TOPIC_PREFIX = "topic://";

    /** The destination for a stored text form. */
    Destination fromText(String text) throws JMSException;

    /** The stored text form of a destination. */
    default String toText(Destination destination) throws JMSException {
        // A temporary queue or topic is a Queue or Topic too. Check Queue first: an object implementing both is rare
        // and ambiguous; treat it as a queue.
        if (destination instanceof Queue queue) {
            return QUEUE_PREFIX + queue.getQueueName();
        }
        if (destination instanceof Topic topic) {
            return TOPIC_PREFIX + topic.getTopicName();
        }
        throw new InvalidDestinationException("neither a Queue nor a Topic: " + destination);
    }
}
