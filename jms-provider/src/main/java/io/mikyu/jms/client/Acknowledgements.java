package io.mikyu.jms.client;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.jms.delivery.MessageSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A session's messages delivered and not yet acknowledged to the engine: automatic acks (AUTO/DUPS_OK) waiting to be
 * written as one batch, and messages delivered under CLIENT_ACKNOWLEDGE until {@code acknowledge()} or
 * {@code recover()}. Transacted work is not here but in {@link TransactionWork}.
 */
final class Acknowledgements {

    private static final Logger LOG = LoggerFactory.getLogger(Acknowledgements.class);
    static final int BATCH = 64;
    static final long DELAY_MILLIS = 50;

    /** Stops renewing a message's lease: it is settled now. */
    private final Consumer<Held> released;
    /** The URL's durability: with SYNC an ack is written and fsynced before it counts as done. */
    private final Durability durability;
    /** Delivered and not yet acknowledged (CLIENT_ACKNOWLEDGE), in delivery order. */
    private final List<Held> unacked = new ArrayList<>();
    /** AUTO/DUPS_OK messages delivered whose engine ack is not written yet (see {@link #ackSoon}). */
    private final List<Held> pending = new ArrayList<>();
    private long pendingSince;

    Acknowledgements(Consumer<Held> released, Durability durability) {
        this.released = released;
        this.durability = durability;
    }

    /** CLIENT_ACKNOWLEDGE: kept until the session's next acknowledge() or recover(). */
    void delivered(Held h) {
        synchronized (unacked) {
            unacked.add(h);
        }
    }

    /**
     * AUTO/DUPS_OK: the message counts as acknowledged; the engine ack is written with others — when
     * {@value #BATCH} are waiting, within {@value #DELAY_MILLIS} ms (the connection's timer), and before anything
     * that must see it (recover, close, unsubscribe). One engine write per batch instead of per message: with a
     * single write per message a consumer runs at the writer's cycle rate. The message stays leased (and renewed)
     * until then, so nobody else receives it; only a crash in between can deliver it again, flagged redelivered.
     */
    void ackSoon(Held h) {
        boolean full;
        synchronized (pending) {
            if (pending.isEmpty()) {
                pendingSince = System.nanoTime();
            }
            pending.add(h);
            full = pending.size() >= BATCH;
        }
        if (full) {
            flushLoggingFailure();  // the receive that filled the batch has its message to return
        }
    }

    /** Writes the waiting automatic acks. */
    void flush() {
        List<Held> batch;
        synchronized (pending) {
            if (pending.isEmpty()) {
                return;
            }
            batch = new ArrayList<>(pending);
            pending.clear();
        }
        int stale = ackAll(batch);
        if (stale > 0) {
            // Nobody to tell: receive() or onMessage() returned long ago. The engine counted the delivery.
            LOG.warn("{} automatically acknowledged messages had lost their leases; they were or will be delivered"
                    + " again, flagged redelivered", stale);
        }
    }

    /** The connection's timer: acks that waited long enough are written. */
    void flushIfDue() {
        synchronized (pending) {
            if (pending.isEmpty() || System.nanoTime() - pendingSince < DELAY_MILLIS * 1_000_000L) {
                return;
            }
        }
        flushLoggingFailure();
    }

    /**
     * Writes the waiting automatic acks where nobody can be told of a failure: receive() or onMessage() has
     * returned or is about to. The messages are no longer renewed: if the acks were not carried out (the
     * connection was lost with them in flight), they come again when their leases end, flagged redelivered.
     */
    private void flushLoggingFailure() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.warn("writing automatic acknowledgements failed; the messages will be delivered again", e);
        }
    }

    /**
     * CLIENT_ACKNOWLEDGE: acknowledges every message delivered so far.
     *
     * @throws StaleLeaseException if some could not be (the others are acknowledged): their leases had ended
     */
    void acknowledgeAll() {
        int stale = ackAll(takeUnacked());
        if (stale > 0) {
            throw new StaleLeaseException(stale + " of the messages could not be acknowledged: their leases had ended"
                    + " (their consumer's connection was lost, say), and they were or will be delivered again,"
                    + " flagged redelivered");
        }
    }

    /** The CLIENT_ACKNOWLEDGE messages delivered so far, for recover() or close() to give back. */
    List<Held> takeUnacked() {
        synchronized (unacked) {
            List<Held> all = new ArrayList<>(unacked);
            unacked.clear();
            return all;
        }
    }

    /** Whether a message of the engine group {@code group} (a subscription) is delivered and unacknowledged. */
    boolean unackedFrom(String group) {
        synchronized (unacked) {
            for (Held h : unacked) {
                if (group.equals(h.consumer.subscription())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Acks {@code all}, one write per source; returns how many could not be acked because their lease had ended. */
    private int ackAll(List<Held> all) {
        Map<MessageSource, List<LeaseToken>> bySource = new IdentityHashMap<>();
        for (Held h : all) {
            released.accept(h);
            bySource.computeIfAbsent(h.source, k -> new ArrayList<>()).add(h.token());
        }
        int stale = 0;
        for (Map.Entry<MessageSource, List<LeaseToken>> e : bySource.entrySet()) {
            try {
                e.getKey().ack(e.getValue(), durability);
            } catch (StaleLeaseException refused) {
                // One stale token refuses the whole batch: ack the rest one by one.
                for (LeaseToken t : e.getValue()) {
                    try {
                        e.getKey().ack(List.of(t), durability);
                    } catch (StaleLeaseException gone) {
                        stale++;
                    }
                }
            }
        }
        return stale;
    }
}
