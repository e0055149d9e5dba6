package io.mikyu.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * Per-queue settings of a task queue, stored with the queue.
 *
 * @param durability        of enqueues, acks and lease records
 * @param maxAttempts       deliveries before a task moves to the dead-letter queue
 * @param backoffInitial    delay before the first redelivery after a nack without delay or an expired lease
 * @param backoffMultiplier each further redelivery waits this many times longer ...
 * @param backoffMax        ... up to this cap: {@code initial × multiplier^(attempt−1)}, capped
 * @param defaultLease      lease of a dequeue that does not name one
 * @param segmentBytes      size at which the queue's log rolls to a new segment
 */
public record TaskQueueConfig(Durability durability, int maxAttempts, Duration backoffInitial,
                              double backoffMultiplier, Duration backoffMax, Duration defaultLease,
                              long segmentBytes) {

    /** Dead-letter queues keep their tasks whatever happens to them. */
    public static final int UNLIMITED_ATTEMPTS = Integer.MAX_VALUE;

    public TaskQueueConfig {
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(backoffInitial, "backoffInitial");
        Objects.requireNonNull(backoffMax, "backoffMax");
        Objects.requireNonNull(defaultLease, "defaultLease");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
        if (backoffInitial.isNegative() || backoffMax.isNegative() || backoffMultiplier < 1.0) {
            throw new IllegalArgumentException("backoff must be non-negative with a multiplier of at least 1");
        }
        if (defaultLease.isNegative() || defaultLease.isZero()) {
            throw new IllegalArgumentException("defaultLease must be positive: " + defaultLease);
        }
        if (segmentBytes < LogQueueConfig.MIN_SEGMENT_BYTES || segmentBytes > LogQueueConfig.MAX_SEGMENT_BYTES) {
            throw new IllegalArgumentException("segmentBytes must be in [" + LogQueueConfig.MIN_SEGMENT_BYTES + ", "
                    + LogQueueConfig.MAX_SEGMENT_BYTES + "]: " + segmentBytes);
        }
    }

    /** 10 attempts, backoff 1 s doubling up to 5 min, 30 s leases, async. */
    public static TaskQueueConfig defaults() {
        return new TaskQueueConfig(Durability.ASYNC, 10, Duration.ofSeconds(1), 2.0, Duration.ofMinutes(5),
                Duration.ofSeconds(30), 64L * 1024 * 1024);
    }

    /** The delay before redelivery after the {@code attempt}-th delivery failed. */
    public Duration backoff(int attempt) {
        double millis = backoffInitial.toMillis() * Math.pow(backoffMultiplier, Math.max(0, attempt - 1));
        return Duration.ofMillis((long) Math.min(millis, backoffMax.toMillis()));
    }

    public TaskQueueConfig withDurability(Durability value) {
        return new TaskQueueConfig(value, maxAttempts, backoffInitial, backoffMultiplier, backoffMax, defaultLease,
                segmentBytes);
    }

    public TaskQueueConfig withMaxAttempts(int value) {
        return new TaskQueueConfig(durability, value, backoffInitial, backoffMultiplier, backoffMax, defaultLease,
                segmentBytes);
    }

    public TaskQueueConfig withBackoff(Duration initial, double multiplier, Duration max) {
        return new TaskQueueConfig(durability, maxAttempts, initial, multiplier, max, defaultLease, segmentBytes);
    }

    public TaskQueueConfig withDefaultLease(Duration value) {
        return new TaskQueueConfig(durability, maxAttempts, backoffInitial, backoffMultiplier, backoffMax, value,
                segmentBytes);
    }

    public TaskQueueConfig withSegmentBytes(long value) {
        return new TaskQueueConfig(durability, maxAttempts, backoffInitial, backoffMultiplier, backoffMax,
                defaultLease, value);
    }
}
