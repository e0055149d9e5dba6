package io.mikyu.broker.server;

import io.mikyu.engine.LeaseToken;

/** An item a {@link PushStream} pushed and the client has not reported taken. Guarded by its stream. */
final class PushedItem {
    final LeaseToken token;
    /** Its encoded size: what it holds of the stream's byte credit. */
    final int bytes;
    long leaseUntil;
    /** Its lease no longer holds (a renewal found it ended): not renewed, not given back. */
    boolean stale;

    PushedItem(LeaseToken token, int bytes, long leaseUntil) {
        this.token = token;
        this.bytes = bytes;
        this.leaseUntil = leaseUntil;
    }
}
