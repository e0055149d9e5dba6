package io.mikyu.engine.internal.write;

import io.mikyu.engine.MikyuException;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.TimeSource;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fails appends fast, with the data directory and the limit in the message, when free disk space falls below the
 * floor, instead of blocking producers silently (the peers' behaviour users complain about). Free space is
 * sampled at most every 64 MiB written or 500 ms, so the check costs nothing per append; while the floor is
 * breached it is sampled every cycle so writes resume as soon as space returns. The interval is timed by the
 * store's steady clock.
 */
public final class DiskSpaceGuard {

    private static final long SAMPLE_BYTES = 64L << 20;
    private static final long SAMPLE_MILLIS = 500;

    private final Path dataDir;
    private final FileStore store;
    private final long minFreeBytes;
    private final TimeSource clock;
    private long bytesSinceSample = Long.MAX_VALUE / 2;
    private long lastSampleMillis;
    private volatile long lastFree = Long.MAX_VALUE;

    public DiskSpaceGuard(Path dataDir, long minFreeBytes, TimeSource clock) throws IOException {
        this.dataDir = dataDir;
        this.store = Files.getFileStore(dataDir);
        this.minFreeBytes = minFreeBytes;
        this.clock = clock;
    }

    /** Writer: {@code null} if {@code incoming} bytes may be written, else the error to fail them with. */
    StorageFullException check(long incoming) {
        long now = clock.steadyMillis();
        boolean breached = lastFree < minFreeBytes + incoming;
        if (breached || bytesSinceSample >= SAMPLE_BYTES || now - lastSampleMillis >= SAMPLE_MILLIS) {
            lastFree = sample();
            lastSampleMillis = now;
            bytesSinceSample = 0;
        }
        if (lastFree < minFreeBytes + incoming) {
            return new StorageFullException("disk almost full: " + lastFree + " bytes free for data directory "
                    + dataDir + ", below the floor of " + minFreeBytes + " bytes (minFreeDiskBytes); nothing was "
                    + "written, appends succeed again once space is freed");
        }
        return null;
    }

    void written(long bytes) {
        bytesSinceSample += bytes;
    }

    /** The error an appender sees for a failed write: a full disk is said to be one. */
    RuntimeException translate(Throwable failure, String what) {
        String message = String.valueOf(failure.getMessage());
        if (failure instanceof StorageFullException sfe) {
            return sfe;
        }
        if (message.contains("No space left") || message.contains("Disk quota exceeded")) {
            lastFree = 0;
            return new StorageFullException("disk full writing " + what + " in data directory " + dataDir
                    + " (" + message + "); nothing was written, appends succeed again once space is freed", failure);
        }
        if (failure instanceof MikyuException me) {
            return me;
        }
        return new MikyuException("write to " + what + " failed: " + failure, failure);
    }

    /** Free bytes at the last sample. */
    public long freeBytes() {
        return sample();
    }

    private long sample() {
        try {
            return store.getUsableSpace();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }
}
