package io.mikyu.jca.admin;

import jakarta.jms.Topic;

/** An administered {@link Topic}: the mikyu topic (log queue) named by the {@code name} property. */
public final class AdminTopic extends AdminDestination implements Topic {

    private static final long serialVersionUID = 1L;

    public AdminTopic() {
    }

    public AdminTopic(String name) {
        super(name);
    }

    @Override
    public String getTopicName() {
        return requireName();
    }

    @Override
    String kind() {
        return "topic";
    }
}
