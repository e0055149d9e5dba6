package io.mikyu.engine.internal.log;

/**
 * Benchmark-only bridge to the package-private {@link SegmentIndex}.
 *
 * <p>It lives in the engine's package {@code io.mikyu.engine.internal.log}, but in the jmh module: a split package
 * on the plain class path (no JPMS, and everything ends up in one shaded jar), so it may call package-private code
 * without the engine opening anything up for benchmarks. The benchmark itself stays in {@code io.mikyu.engine.jmh};
 * {@link #floorPosition(long)} is a one-line delegation the JIT inlines.
 */
public final class JmhSegmentIndexProbe {

    private final SegmentIndex index;

    private JmhSegmentIndexProbe(SegmentIndex index) {
        this.index = index;
    }

    /**
     * An index shaped like the one the writer builds: {@code entries} entries from {@code baseOffset}, one every
     * {@code recordsPerEntry} offsets and {@code bytesPerEntry} bytes (the default index interval is 4 KiB).
     */
    public static JmhSegmentIndexProbe filled(long baseOffset, int entries, int recordsPerEntry, int bytesPerEntry) {
        if ((long) entries * bytesPerEntry + 32 > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("segment positions must stay below 2 GiB");
        }
        SegmentIndex index = new SegmentIndex(baseOffset);
        for (int i = 0; i < entries; i++) {
            index.add(baseOffset + (long) i * recordsPerEntry, 32 + i * bytesPerEntry, 1_000L + i);
        }
        return new JmhSegmentIndexProbe(index);
    }

    public int size() {
        return index.size();
    }

    /** {@link SegmentIndex#floorPosition(long)}: binary search for the batch to start reading {@code offset} from. */
    public int floorPosition(long offset) {
        return index.floorPosition(offset);
    }
}
