package io.mikyu.engine;

/**
 * Settings of a shared consumer group, stored with it.
 *
 * @param maxInFlight records the group may hold between its committed offset and the furthest record fetched:
 *                    bounds memory and how far members run ahead of a stuck record
 * @param redelivery  attempts, backoff and default lease, as for task queues
 */
public record SharedGroupConfig(int maxInFlight, TaskQueueConfig redelivery) {

    public SharedGroupConfig {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1: " + maxInFlight);
        }
        java.util.Objects.requireNonNull(redelivery, "redelivery");
    }

    /** A window of 10,000 records and the task-queue defaults. */
    public static SharedGroupConfig defaults() {
        return new SharedGroupConfig(10_000, TaskQueueConfig.defaults().withSegmentBytes(4L << 20));
    }

    public SharedGroupConfig withMaxInFlight(int value) {
        return new SharedGroupConfig(value, redelivery);
    }

    public SharedGroupConfig withRedelivery(TaskQueueConfig value) {
        return new SharedGroupConfig(maxInFlight, value);
    }
}
