package io.mikyu.engine;

import java.nio.charset.StandardCharsets;

/**
 * A task handed out under a lease. Finish it with {@link TaskQueue#ack(LeaseToken)}; give it back with
 * {@link TaskQueue#nack}; keep it longer with {@link TaskQueue#extend}.
 *
 * @param attempt        1 for the first delivery, counted durably across restarts
 * @param leaseExpiresAt epoch millis at which the lease ends and the task returns to the queue
 * @param previousLeaseRanOut the task's previous counted lease ran out with no ack or nack from its holder (whose
 *                            consumer may have died of it); known where the store runs, {@code false} elsewhere
 */
public record LeasedTask(long id, LeaseToken token, int attempt, int priority, long enqueuedAt, long expiresAt,
                         long leaseExpiresAt, Headers headers, byte[] payload, boolean previousLeaseRanOut) {

    public LeasedTask(long id, LeaseToken token, int attempt, int priority, long enqueuedAt, long expiresAt,
                      long leaseExpiresAt, Headers headers, byte[] payload) {
        this(id, token, attempt, priority, enqueuedAt, expiresAt, leaseExpiresAt, headers, payload, false);
    }

    public String payloadAsString() {
        return new String(payload, StandardCharsets.UTF_8);
    }
}
