package io.mikyu.engine;

/**
 * A name held by a client of the store until released: how the users of one store agree on who owns what (a
 * JMS client ID, the one consumer of a durable subscription) across threads, connections and, through a broker,
 * processes. Claims live in memory: they end with {@link #release()}, with the handle that took them (a broker
 * releases a connection's claims when the connection ends, however it ends) and with the store.
 * See {@link Mikyu#claim(String, ClaimMode)}.
 */
public interface Claim extends AutoCloseable {

    String name();

    ClaimMode mode();

    /** Gives the claim up (again: no effect) and returns how many holders the name has left. */
    int release();

    @Override
    default void close() {
        release();
    }
}
