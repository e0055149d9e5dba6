package io.mikyu.engine;

import java.time.Duration;
import java.util.List;

/**
 * The leases a {@link TaskQueue} or a {@link SharedGroup} hands out, and what their holders do with them: finish
 * the item, give it back, lengthen its lease. A token whose lease ended and whose item went to another consumer is
 * refused ({@link StaleLeaseException}).
 */
public interface Leases {

    /** Finishes the item. {@link StaleLeaseException} if the lease no longer holds. */
    void ack(LeaseToken token);

    /** Finishes several items in one write; stale tokens are refused before anything is acked. */
    void ack(List<LeaseToken> tokens);

    /**
     * As {@link #ack(List)}, returning once the acks are as durable as {@code durability} says (the queue's state
     * durability otherwise): one write, all or nothing. An implementation that cannot choose acks as its
     * configuration says.
     */
    default void ack(List<LeaseToken> tokens, Durability durability) {
        ack(tokens);
    }

    /**
     * Gives the item back: delivered again after {@code delay} (the backoff if {@code null}), or to the dead-letter
     * queue with {@code reason} once it has had {@code maxAttempts} deliveries. If that move cannot be written (a
     * full disk, a failed write) the storage's exception is thrown and the item stays in its queue, delivered again
     * after a short wait: a nack that returns has either given the item back or moved it.
     */
    void nack(LeaseToken token, Duration delay, String reason);

    /**
     * Gives back leased items the consumer never handed to its application (a closing prefetch buffer): ready at
     * once, and the lease does not count as a delivery attempt. Stale tokens are refused before any is returned.
     */
    void returnUndelivered(List<LeaseToken> tokens);

    /**
     * Lengthens the lease to {@code lease} from now; returns the new expiry (epoch millis). A lease that has run out
     * is refused ({@link StaleLeaseException}) even if the item was not handed out again yet: it is on its way back.
     */
    long extend(LeaseToken token, Duration lease);

    /**
     * Lengthens several leases to {@code lease} from now, in one write where the store runs; returns each new
     * expiry, or -1 for a lease that no longer holds (the others are extended all the same).
     */
    default long[] extend(List<LeaseToken> tokens, Duration lease) {
        long[] until = new long[tokens.size()];
        for (int i = 0; i < until.length; i++) {
            try {
                until[i] = extend(tokens.get(i), lease);
            } catch (StaleLeaseException e) {
                until[i] = -1;
            }
        }
        return until;
    }

    /**
     * Whether the lease of {@code token} still holds: the item was not acked, nacked, given back or handed out
     * again. A read only (nothing is written). Only where the store runs; elsewhere
     * {@link UnsupportedOperationException}.
     */
    default boolean holds(LeaseToken token) {
        throw new UnsupportedOperationException("whether a lease holds is known only where the store runs");
    }

    /**
     * Whether a fetch may have to wait until the items of earlier fetches are acked: on Kafka a share consumer fetches
     * again only once everything it fetched is acknowledged. A consumer that writes its acks in batches writes the
     * waiting ones before it fetches again, else its next fetch waits for the batch's timer. {@code false} for the
     * embedded engine and the broker, which hand out more while leases are held.
     */
    default boolean fetchWaitsForAcks() {
        return false;
    }
}
