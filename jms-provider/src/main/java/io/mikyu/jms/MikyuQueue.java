package io.mikyu.jms;

import io.mikyu.jms.message.DestinationCodec;
import jakarta.jms.Queue;

/** A JMS Queue: the task queue of the same name (at-least-once, leases, dead letters in {@code <name>/dlq}). */
public non-sealed class MikyuQueue extends MikyuDestination implements Queue {

    private static final long serialVersionUID = 1L;

    public MikyuQueue(String name) {
        super(name);
    }

    @Override
    public String getQueueName() {
        return name();
    }

    @Override
    public String uri() {
        return DestinationCodec.QUEUE_PREFIX + name();
    }
}
