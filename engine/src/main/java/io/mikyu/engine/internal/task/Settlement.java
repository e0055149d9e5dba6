package io.mikyu.engine.internal.task;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.internal.txn.TxOp;

/**
 * An ack or nack decided by a transaction ({@code delayMillis} -1: the backoff), or the DEAD record of a move to
 * the dead-letter queue ({@code dead}, with the attempts it had).
 */
record Settlement(LeaseToken token, boolean nack, long delayMillis, String reason, boolean dead, int attempts) {

    Settlement(LeaseToken token, boolean nack, long delayMillis, String reason) {
        this(token, nack, delayMillis, reason, false, 0);
    }

    static Settlement deadLetter(TxOp.DeadLetter d) {
        return new Settlement(new LeaseToken(d.id(), d.lease()), false, 0, d.reason(), true, d.attempts());
    }
}
