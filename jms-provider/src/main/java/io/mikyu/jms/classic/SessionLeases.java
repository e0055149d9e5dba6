package io.mikyu.jms.classic;

import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.TimeSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The messages one session holds under a lease, buffered in a consumer or delivered and not yet settled: the
 * connection's timer renews them before they end, and each leaves when it is settled (acked or nacked) or given
 * back. Kept apart from the acknowledgement modes because every mode, transactions and XA branches included, holds
 * leases the same way.
 */
final class SessionLeases {

    private static final Logger LOG = LoggerFactory.getLogger(SessionLeases.class);

    private final MikyuConnection connection;
    private final Set<Held> leased = ConcurrentHashMap.newKeySet();

    SessionLeases(MikyuConnection connection) {
        this.connection = connection;
    }

    void leased(Held h) {
        leased.add(h);
    }

    void released(Held h) {
        leased.remove(h);
    }

    /** Acks (or nacks, for immediate redelivery) one held message. */
    void settle(Held h, boolean ack, String reason) {
        leased.remove(h);
        try {
            if (ack) {
                h.source.ack(List.of(h.token()), connection.options.persistentDurability());
            } else {
                h.source.nack(h.token(), connection.options.redeliveryDelayOf(h.consumer.destination().name()),
                        reason);
            }
        } catch (StaleLeaseException e) {
            LOG.warn("a message's lease ended before it was settled; it was or will be delivered again: {}",
                    e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("settling a message failed; it will be delivered again", e);
        }
    }

    /** Extends every lease that has less than half of {@code lease} left. */
    void renew(Duration lease) {
        long now = TimeSource.system().steadyMillis(); // the scale of the engine's lease ends: steady time
        long threshold = now + lease.toMillis() / 2;
        for (Held h : leased) {
            if (h.leaseUntil < threshold) {
                try {
                    h.leaseUntil = h.source.extend(h.token(), lease);
                } catch (StaleLeaseException e) {
                    leased.remove(h);
                    h.consumer.forget(h); // if still buffered: the store hands it out again, this copy never
                } catch (RuntimeException e) {
                    LOG.debug("renewing a lease failed", e);
                }
            }
        }
    }
}
