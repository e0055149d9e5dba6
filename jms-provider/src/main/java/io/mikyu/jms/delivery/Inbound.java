package io.mikyu.jms.delivery;

import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;

/**
 * A message a consumer took from the engine and has not delivered yet: its stored form, the delivery attempt
 * (1 on the first delivery) and the lease that holds it until it is acked, nacked or given back.
 */
public record Inbound(Headers headers, byte[] payload, int attempt, LeaseToken token, long leaseUntil) {
}
