package io.mikyu.engine;

/**
 * When an append is acknowledged.
 *
 * <p>Both modes hand the bytes to the operating system before the call returns, so a process crash
 * ({@code kill -9}) loses nothing acknowledged in either. They differ on power loss or an OS crash.
 */
public enum Durability {
    /** Returns after the fsync that covers the write; one fsync covers every producer in the same group commit. */
    SYNC,
    /** Returns once written to the OS; fsync follows by interval ({@link EngineConfig#flushInterval()}). */
    ASYNC;

    public static Durability parse(String text) {
        return valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
    }
}
