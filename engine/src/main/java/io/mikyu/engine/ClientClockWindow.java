package io.mikyu.engine;

/**
 * How far a client's clock may be from the store's and still stamp the records it appends through a broker: one
 * minute either way. Retention by age and seeks by time read record timestamps; a record stamped further off gets
 * the store's time of the append instead (the engine does so for encoded batches, the broker for entries).
 */
public final class ClientClockWindow {

    public static final long MILLIS = 60_000;

    private ClientClockWindow() {
    }

    /** Whether a client's {@code timestamp} is close enough to the store's {@code nowMillis} to be kept. */
    public static boolean contains(long timestamp, long nowMillis) {
        return timestamp >= nowMillis - MILLIS && timestamp <= nowMillis + MILLIS;
    }
}
