package io.mikyu.jms.spi;

import jakarta.jms.JMSException;

import java.time.Duration;

/**
 * A consumer that can wait for a message without delivering it, for a resource adapter that must take each message
 * inside the transaction of its delivery: it waits here, has the container start the transaction (which enlists the
 * session's XAResource), and only then receives, so the message is consumed in that transaction. Implemented by
 * mikyu's message consumers; not meant for applications.
 */
public interface AvailabilityAware {

    /**
     * Waits up to {@code timeout} until the consumer holds a message for its next {@code receive}, without
     * delivering or acknowledging it: the message is fetched under the session's lease and kept first in the
     * consumer's buffer, so a following {@code receiveNoWait()} returns it (unless it expired meanwhile). Ignores
     * whether the connection is started.
     *
     * @return whether a message is waiting; false after the timeout, when the consumer closed, or when the calling
     *         thread was interrupted (its interrupt status is kept)
     * @throws JMSException if the consumer or its session is closed, or fetching failed
     */
    boolean awaitMessage(Duration timeout) throws JMSException;

    /**
     * Gives back at once every message the consumer fetched ahead and has not delivered, as never delivered (no
     * attempt counted), so other consumers may take them; the consumer stays open and fetches again when next
     * asked. Messages already delivered are not affected.
     */
    void returnPrefetched();
}
