package io.mikyu.engine;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Settings of a shared consumer group, stored with it.
 *
 * @param maxInFlight records the group may hold between its committed offset and the furthest record fetched:
 *                    bounds memory and how far members run ahead of a stuck record
 * @param redelivery  attempts, backoff and default lease, as for task queues
 * @param attributes  opaque name/value pairs stored with the group for its owner (the JMS provider keeps a
 *                    subscription's selector there); the engine does not read them
 */
public record SharedGroupConfig(int maxInFlight, TaskQueueConfig redelivery, Map<String, String> attributes) {

    public SharedGroupConfig {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1: " + maxInFlight);
        }
        Objects.requireNonNull(redelivery, "redelivery");
        attributes = attributes == null ? Map.of() : Map.copyOf(new TreeMap<>(attributes));
    }

    public SharedGroupConfig(int maxInFlight, TaskQueueConfig redelivery) {
        this(maxInFlight, redelivery, Map.of());
    }

    /** A window of 10,000 records and the task-queue defaults. */
    public static SharedGroupConfig defaults() {
        return new SharedGroupConfig(10_000, TaskQueueConfig.defaults().withSegmentBytes(4L << 20));
    }

    public SharedGroupConfig withMaxInFlight(int value) {
        return new SharedGroupConfig(value, redelivery, attributes);
    }

    public SharedGroupConfig withRedelivery(TaskQueueConfig value) {
        return new SharedGroupConfig(maxInFlight, value, attributes);
    }

    public SharedGroupConfig withAttributes(Map<String, String> value) {
        return new SharedGroupConfig(maxInFlight, redelivery, value);
    }
}
