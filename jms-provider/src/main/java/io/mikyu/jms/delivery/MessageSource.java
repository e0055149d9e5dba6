package io.mikyu.jms.delivery;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Transaction;

import java.time.Duration;
import java.util.List;

/**
 * Where a consumer's messages come from: a task queue (JMS Queue), a shared group on a log queue (durable and
 * shared subscriptions) or an in-memory cursor on a log queue (non-durable subscriptions). One thread fetches;
 * acks, nacks and renewals may come from the session's other threads.
 */
public interface MessageSource {

    /** Up to {@code max} messages under leases of {@code lease}, waiting up to {@code wait} for the first. */
    List<Inbound> fetch(int max, Duration lease, Duration wait) throws InterruptedException;

    void ack(List<LeaseToken> tokens);

    /** As {@link #ack(List)}, as durable as {@code durability}: one write, all or nothing. */
    default void ack(List<LeaseToken> tokens, io.mikyu.engine.Durability durability) {
        ack(tokens);
    }

    /** Delivers the message again after {@code delay}, or dead-letters it once it had its maximum attempts. */
    void nack(LeaseToken token, Duration delay, String reason);

    /** Gives back messages that were fetched but never handed to the application (not counted as attempts). */
    void returnUndelivered(List<LeaseToken> tokens);

    /** Extends a lease; returns the new end (epoch millis). */
    long extend(LeaseToken token, Duration lease);

    /** Whether a fetch may wait until earlier fetches' messages are acked ({@code Leases#fetchWaitsForAcks}). */
    default boolean fetchWaitsForAcks() {
        return false;
    }

    /** Whether this source's acks can be part of an engine transaction (see {@link #ackIn}). */
    default boolean transactional() {
        return true;
    }

    /**
     * Adds the ack of {@code token} to {@code tx}; returns false if this source's acks cannot be part of an engine
     * transaction (the caller acks after the commit instead).
     */
    boolean ackIn(Transaction tx, LeaseToken token);

    /** The consumer closed: release what the source holds (e.g. a non-durable subscription's group). */
    void close();
}
