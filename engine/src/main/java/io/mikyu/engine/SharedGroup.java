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
public interface SharedGroup extends Leases {

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

    /** Every record below this offset is finished (acked or dead-lettered). */
    long committedOffset();

    /** Records of the window by state: ready for delivery, waiting for redelivery, in flight. */
    TaskCounts counts();

    /** Records between the committed offset and the end of the queue. */
    long lag();

    /** Where records go after {@code maxAttempts} deliveries: a task queue named {@code <queue>:<group>/dlq}. */
    TaskQueue deadLetters();

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
