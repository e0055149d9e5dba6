package io.mikyu.engine.support;

import io.mikyu.engine.TimeSource;

import java.time.Duration;
import java.time.Instant;

/**
 * A {@link TimeSource} a test moves by hand: {@link #advance} lets time pass (both clocks move), {@link #stepWall}
 * sets the host's clock (only the wall clock jumps, as when an administrator or NTP steps it).
 */
public final class SteppableTimeSource implements TimeSource {

    private volatile long wall;
    private volatile long steady;

    /** Both clocks at {@code wallMillis}, as a process that has just started. */
    public SteppableTimeSource(long wallMillis) {
        this.wall = wallMillis;
        this.steady = wallMillis;
    }

    /** Starts at the real wall clock's reading. */
    public static SteppableTimeSource startingNow() {
        return new SteppableTimeSource(System.currentTimeMillis());
    }

    /** Time passes: both clocks move on by {@code d}. */
    public synchronized void advance(Duration d) {
        wall += d.toMillis();
        steady += d.toMillis();
    }

    /** The wall clock is set {@code d} ahead (negative: back); no time passes. */
    public synchronized void stepWall(Duration d) {
        wall += d.toMillis();
    }

    /**
     * The wall-clock instant {@code d} from now on this clock, for a task's delivery or expiry time
     * ({@code Task.withDelay} and {@code withTimeToLive} read the real clock, which this one does not follow).
     */
    public Instant wallAfter(Duration d) {
        return Instant.ofEpochMilli(wall + d.toMillis());
    }

    @Override
    public long wallMillis() {
        return wall;
    }

    @Override
    public long steadyMillis() {
        return steady;
    }
}
