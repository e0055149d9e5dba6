package io.mikyu.broker.server;

/** What becomes of the items a closing stream pushed and the client has not reported taken. */
enum OutstandingOnClose {
    /**
     * The client closed the stream: every CREDIT it sent came before its close, so they were never taken and go
     * back undelivered, not counted as attempts.
     */
    GIVE_BACK,
    /**
     * The stream ends without the client's word (its connection was lost, the broker is stopping, the engine
     * refused the stream's work): a CREDIT for an item the application already took may have been lost with the
     * connection, or be unread, and giving that item back would deliver it again, unflagged, while the
     * application has it. They stay leased as they are in the store (leases outlive a restart): a client that
     * reconnects renews what it took and gives back what it did not take; a client that is gone has its items
     * come back when their leases end, as a delivery counted.
     */
    KEEP_LEASED
}
