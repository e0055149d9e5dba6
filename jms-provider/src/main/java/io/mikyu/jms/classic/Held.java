package io.mikyu.jms.classic;

import io.mikyu.engine.LeaseToken;
import io.mikyu.jms.delivery.Inbound;
import io.mikyu.jms.delivery.MessageSource;

/** A message its session holds under a lease: buffered in a consumer, or delivered and not yet acknowledged. */
final class Held {

    final MessageSource source;
    final Inbound inbound;
    final MikyuMessageConsumer consumer;
    volatile long leaseUntil;
    /** A renewal found the lease ended: the store hands the message out again, so this copy must not be. */
    volatile boolean ended;

    Held(MessageSource source, Inbound inbound, MikyuMessageConsumer consumer) {
        this.source = source;
        this.inbound = inbound;
        this.consumer = consumer;
        this.leaseUntil = inbound.leaseUntil();
    }

    LeaseToken token() {
        return inbound.token();
    }

    /**
     * Whether the lease, as far as this side knows, may end before the message is handed out: less than a tenth of
     * {@code leaseMillis} left at {@code now} (steady millis, the scale of the engine's lease ends). Renewals keep at
     * least a sixth left; less means they fell behind (a broker away, a stalled timer), or the item waited in a
     * stream's buffer, where the broker renewed it without telling this side.
     */
    boolean leaseInDoubt(long now, long leaseMillis) {
        return leaseUntil - now < leaseMillis / 10;
    }
}
