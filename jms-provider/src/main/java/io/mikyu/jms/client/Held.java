package io.mikyu.jms.client;

import io.mikyu.engine.LeaseToken;
import io.mikyu.jms.delivery.Inbound;
import io.mikyu.jms.delivery.MessageSource;

/** A message its session holds under a lease: buffered in a consumer, or delivered and not yet acknowledged. */
final class Held {

    final MessageSource source;
    final Inbound inbound;
    final MikyuMessageConsumer consumer;
    volatile long leaseUntil;

    Held(MessageSource source, Inbound inbound, MikyuMessageConsumer consumer) {
        this.source = source;
        this.inbound = inbound;
        this.consumer = consumer;
        this.leaseUntil = inbound.leaseUntil();
    }

    LeaseToken token() {
        return inbound.token();
    }
}
