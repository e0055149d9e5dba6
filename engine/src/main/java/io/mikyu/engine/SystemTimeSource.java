package io.mikyu.engine;

/** {@link TimeSource#system()}: {@link System#currentTimeMillis()} and {@link System#nanoTime()}. */
final class SystemTimeSource implements TimeSource {

    static final SystemTimeSource INSTANCE = new SystemTimeSource();

    private final long anchorWallMillis = System.currentTimeMillis();
    private final long anchorNanos = System.nanoTime();

    private SystemTimeSource() {
    }

    @Override
    public long wallMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public long steadyMillis() {
        return anchorWallMillis + Math.floorDiv(System.nanoTime() - anchorNanos, 1_000_000L);
    }
}
