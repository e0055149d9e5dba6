package io.mikyu.engine;

import java.time.Duration;
import java.util.List;

/**
 * A consumer group of a log queue in shared mode: many members fetch records under per-record leases, within a
 * bounded in-flight window, and ack them one by one (the Kafka share-group model, and what JMS shared
 * subscriptions need). A nacked record or one whose lease ends is delivered again with its delivery count raised,
 * after the backoff of {@link TaskQueueConfig}; after {@code maxAttempts} deliveries it moves to the group's
 * dead-letter queue. The committed offset is the lowest record not yet finished; it only moves forward.
 *
 * <p>Lease tokens work as for task queues: a token whose lease ended and whose record went to another member is
 * refused ({@link StaleLeaseException}).
 */
public interface SharedGroup {

    /**
     * Optional record headers (decimal text) a shared group honours for each record, as task queues do for their
     * tasks: the priority 0-9 (higher first), the epoch millis before which it is not delivered, and the epoch
     * millis after which it is dropped undelivered. Plain reads of the log ignore them.
     */
    String PRIORITY_HEADER = "mikyu.priority";
    String DELIVER_AT_HEADER = "mikyu.deliverAt";
    String EXPIRES_AT_HEADER = "mikyu.expiresAt";

    String name();

    String queue();

    SharedGroupConfig config();

    /** Up to {@code max} records under a lease of {@code lease}, waiting up to {@code wait} for the first. */
    List<Delivery> fetch(int max, Duration lease, Duration wait) throws InterruptedException;

    void ack(LeaseToken token);

    void ack(List<LeaseToken> tokens);

    /**
     * As {@link #ack(List)}, returning once the acks are as durable as {@code durability} says (the queue's state
     * durability otherwise): one write, all or nothing. An implementation that cannot choose acks as its
     * configuration says.
     */
    default void ack(List<LeaseToken> tokens, Durability durability) {
        ack(tokens);
    }

    /** Delivers the record again after {@code delay} (the backoff if {@code null}), or dead-letters it. */
    void nack(LeaseToken token, Duration delay, String reason);

    /**
     * Gives back leased items the consumer never handed to its application (a closing prefetch buffer): ready at
     * once, and the lease does not count as a delivery attempt. Stale tokens are refused before any is returned.
     */
    void returnUndelivered(List<LeaseToken> tokens);

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

    /** Every record below this offset is finished (acked or dead-lettered). */
    long committedOffset();

    /** Records of the window by state: ready for delivery, waiting for redelivery, in flight. */
    TaskCounts counts();

    /** Records between the committed offset and the end of the queue. */
    long lag();

    /** Where records go after {@code maxAttempts} deliveries: a task queue named {@code <queue>:<group>/dlq}. */
    TaskQueue deadLetters();

    /**
     * Whether the lease of {@code token} still holds: the record was not acked, nacked, given back or handed out
     * again. A read only. Only where the store runs; elsewhere {@link UnsupportedOperationException}.
     */
    default boolean holds(LeaseToken token) {
        throw new UnsupportedOperationException("whether a lease holds is known only where the store runs");
    }

    /**
     * A record handed out to a member; {@code previousLeaseRanOut}: its previous counted lease ran out with no ack or
     * nack from its holder (known where the store runs, {@code false} elsewhere).
     */
    record Delivery(Record record, LeaseToken token, int deliveryCount, long leaseExpiresAt,
                    boolean previousLeaseRanOut) {

        public Delivery(Record record, LeaseToken token, int deliveryCount, long leaseExpiresAt) {
            this(record, token, deliveryCount, leaseExpiresAt, false);
        }
    }
}
