package io.mikyu.bench.jca;

import io.mikyu.bench.jca.app.BenchNames;

/** A messaging side of the server: its resource adapter's id and the queue its message-driven bean consumes. */
enum Side {

    /** mikyu's resource adapter, deployed as mikyu-jca.rar, a store inside the server (vm://). */
    MIKYU("mikyu", "mikyu-jca.rar", BenchNames.MIKYU_CONSUME_QUEUE),
    /** WildFly's own: activemq-ra.rar and its embedded ActiveMQ Artemis, as standalone-full configures them. */
    ARTEMIS("artemis", "activemq-ra.rar", BenchNames.ARTEMIS_CONSUME_QUEUE);

    /** The name the servlets take ({@code side=}) and the tables print. */
    final String id;
    final String resourceAdapter;
    final String consumeQueue;

    Side(String id, String resourceAdapter, String consumeQueue) {
        this.id = id;
        this.resourceAdapter = resourceAdapter;
        this.consumeQueue = consumeQueue;
    }

    static Side of(String id) {
        for (Side side : values()) {
            if (side.id.equals(id.trim())) {
                return side;
            }
        }
        throw new IllegalArgumentException("no side " + id + " (mikyu, artemis)");
    }

    /** The name of the deployment that holds this side's message-driven bean (and its context root). */
    String consumerDeployment() {
        return "consume-" + id;
    }
}
