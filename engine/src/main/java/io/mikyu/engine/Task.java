package io.mikyu.engine;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a producer enqueues on a task queue: payload, headers, priority, when it becomes deliverable and when it
 * expires. Build with {@link #of(byte[])} and the {@code with…} methods. The payload array is not copied (the queue
 * may keep it in memory for its consumers): do not change it after enqueueing.
 *
 * @param priority  0 (lowest) to 9 (highest); higher-priority tasks are handed out first, FIFO within a priority
 * @param deliverAt epoch millis before which the task is not handed out; 0 for at once
 * @param expiresAt epoch millis after which the task is never handed out (it is dropped); 0 for never
 */
public record Task(byte[] payload, Headers headers, int priority, long deliverAt, long expiresAt) {

    public static final int DEFAULT_PRIORITY = 4;

    public Task {
        Objects.requireNonNull(payload, "payload");
        headers = headers == null ? Headers.EMPTY : headers;
        if (priority < 0 || priority > 9) {
            throw new IllegalArgumentException("priority must be 0-9: " + priority);
        }
        if (deliverAt < 0 || expiresAt < 0) {
            throw new IllegalArgumentException("deliverAt and expiresAt must not be negative");
        }
    }

    public static Task of(byte[] payload) {
        return new Task(payload, Headers.EMPTY, DEFAULT_PRIORITY, 0, 0);
    }

    public static Task of(String payload) {
        return of(payload.getBytes(StandardCharsets.UTF_8));
    }

    public Task withHeaders(Headers value) {
        return new Task(payload, value, priority, deliverAt, expiresAt);
    }

    public Task withPriority(int value) {
        return new Task(payload, headers, value, deliverAt, expiresAt);
    }

    /** Not deliverable before {@code at}. */
    public Task deliverAt(Instant at) {
        return new Task(payload, headers, priority, at.toEpochMilli(), expiresAt);
    }

    /** Not deliverable until {@code delay} from now. */
    public Task withDelay(Duration delay) {
        return deliverAt(Instant.now().plus(delay));
    }

    /** Dropped, never delivered, once {@code ttl} from now has passed. */
    public Task withTimeToLive(Duration ttl) {
        return new Task(payload, headers, priority, deliverAt, Instant.now().plus(ttl).toEpochMilli());
    }

    public Task expiresAt(Instant at) {
        return new Task(payload, headers, priority, deliverAt, at.toEpochMilli());
    }
}
