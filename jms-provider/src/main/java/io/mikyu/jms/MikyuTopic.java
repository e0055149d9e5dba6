package io.mikyu.jms;

import io.mikyu.jms.message.DestinationCodec;
import jakarta.jms.Topic;

/** A JMS Topic: the log queue of the same name; subscriptions are consumer groups on it. */
public non-sealed class MikyuTopic extends MikyuDestination implements Topic {

    private static final long serialVersionUID = 1L;

    public MikyuTopic(String name) {
        super(name);
    }

    @Override
    public String getTopicName() {
        return name();
    }

    @Override
    public String uri() {
        return DestinationCodec.TOPIC_PREFIX + name();
    }
}
