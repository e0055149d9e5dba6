package io.mikyu.bench.kafka;

/**
 * What a run sends where: a log (a JMS Topic with one durable subscriber; a topic read by a consumer group) or a
 * queue (a JMS Queue; a topic read by a share group), each with its producers and consumers.
 */
enum Workload {
    /** A topic and one durable subscriber: every message once to it. */
    LOG("log"),
    /** A queue and its competing consumers: every message once across them. */
    QUEUE("queue");

    final String label;

    Workload(String label) {
        this.label = label;
    }

    static Workload of(String label) {
        for (Workload w : values()) {
            if (w.label.equals(label)) {
                return w;
            }
        }
        throw new IllegalArgumentException("no workload '" + label + "': log or queue");
    }
}
