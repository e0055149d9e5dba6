package io.mikyu.jms.message;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.Task;

/**
 * A JMS message in engine form (WIRE-FORMAT.md): the payload and headers, plus the scheduling fields a {@link Task}
 * takes as separate arguments. The arrays are fresh; hand them to the engine and do not change them.
 *
 * @param payload   the record payload (the body), never null
 * @param headers   the header fields, body type and properties
 * @param priority  JMSPriority clamped to 0-9
 * @param deliverAt JMSDeliveryTime, or 0 if not set (or negative)
 * @param expiresAt JMSExpiration, or 0 for never
 * @param timestamp JMSTimestamp, or 0 if not set
 */
public record EncodedMessage(byte[] payload, Headers headers, int priority, long deliverAt, long expiresAt,
                             long timestamp) {

    /** The task-queue form (JMS Queue). */
    public Task toTask() {
        return new Task(payload, headers, priority, deliverAt, expiresAt);
    }

    /** The log-queue form (JMS Topic): no key; the record timestamp is JMSTimestamp, or the append time if unset. */
    public Entry toEntry() {
        return new Entry(null, headers, payload, timestamp > 0 ? timestamp : Entry.NO_TIMESTAMP);
    }
}
