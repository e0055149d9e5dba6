package io.mikyu.jca.admin;

import jakarta.jms.Queue;

/** An administered {@link Queue}: the mikyu queue (task queue) named by the {@code name} property. */
public final class AdminQueue extends AdminDestination implements Queue {

    private static final long serialVersionUID = 1L;

    public AdminQueue() {
    }

    public AdminQueue(String name) {
        super(name);
    }

    @Override
    public String getQueueName() {
        return requireName();
    }

    @Override
    String kind() {
        return "queue";
    }
}
