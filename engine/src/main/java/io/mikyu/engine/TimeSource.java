package io.mikyu.engine;

/**
 * The store's two clocks. The wall clock says what time it is (record timestamps, retention by age) and may step
 * when the host's clock is set; the steady clock measures durations (leases, backoffs, delays, timeouts) and never
 * steps. {@link #system()} in production; tests plug in a clock they can step and advance
 * ({@link io.mikyu.engine.EngineConfig.Builder#timeSource}).
 */
public interface TimeSource {

    /** Wall-clock time in epoch milliseconds, as {@link System#currentTimeMillis()}: it may jump either way. */
    long wallMillis();

    /**
     * Steady time in epoch milliseconds: the wall clock's reading when this source started, plus the monotonic
     * time elapsed since. It never jumps while the process runs, and reads as wall time across restarts (a new
     * process anchors anew), which is why deadlines that are persisted are written in it.
     */
    long steadyMillis();

    /** The JVM's clocks; the steady clock is anchored to the wall clock once, when this class is loaded. */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }
}
