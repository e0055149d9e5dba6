package io.mikyu.engine;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.time.Duration;
import java.util.Objects;

/**
 * Store-wide settings. Immutable; build with {@link #builder()}.
 */
public final class EngineConfig {

    /** What recovery does when it finds damage in the middle of a file (a torn tail is always cut). */
    public enum CorruptionPolicy {
        /** Move the damaged file aside into {@code quarantine/}, keep what precedes the damage, report, open. */
        QUARANTINE,
        /** Refuse to open; the error names the file and position. */
        FAIL
    }

    /** What a transient (memory-only) enqueue does when it would go over a transient-memory limit. */
    public enum TransientMemoryPolicy {
        /** Wait until consumers free memory, up to {@link #transientMemoryBlockTimeout()}, then fail. */
        BLOCK,
        /** Fail at once with {@link MemoryLimitException}; nothing is enqueued. */
        FAIL,
        /** Write the tasks like stored ones ({@link Durability#ASYNC}) instead of keeping them in memory. */
        SPILL
    }

    private final Durability defaultDurability;
    private final Duration flushInterval;
    private final int maxRecordBytes;
    private final int maxBatchBytes;
    private final int indexIntervalBytes;
    private final long cacheBytesPerQueue;
    private final int paceProducersAbove;
    private final int taskWindow;
    private final long preallocateBytes;
    private final long minFreeDiskBytes;
    private final Duration housekeepingInterval;
    private final long compactionKeyMapBytes;
    private final boolean verifyChecksumsOnRead;
    private final CorruptionPolicy corruptionPolicy;
    private final MeterRegistry meterRegistry;
    /** Whether {@link #meterRegistry} was given (else it is a registry that records nothing). */
    private final boolean meterRegistryGiven;
    /** {@code null}: per-queue meters go to the registry when one is given. */
    private final Boolean perQueueMeters;
    private final TimeSource timeSource;
    private final int maxOpenSegmentFiles;
    private final boolean openQueuesInBackground;

    private final long transientMemoryLimit;
    private final long transientMemoryLimitPerQueue;
    private final TransientMemoryPolicy transientMemoryPolicy;
    private final Duration transientMemoryBlockTimeout;

    private EngineConfig(Builder b) {
        this.defaultDurability = b.defaultDurability;
        this.flushInterval = b.flushInterval;
        this.maxRecordBytes = b.maxRecordBytes;
        this.maxBatchBytes = b.maxBatchBytes;
        this.indexIntervalBytes = b.indexIntervalBytes;
        this.cacheBytesPerQueue = b.cacheBytesPerQueue;
        this.paceProducersAbove = b.paceProducersAbove;
        this.taskWindow = b.taskWindow;
        this.preallocateBytes = b.preallocateBytes;
        this.minFreeDiskBytes = b.minFreeDiskBytes;
        this.housekeepingInterval = b.housekeepingInterval;
        this.compactionKeyMapBytes = b.compactionKeyMapBytes;
        this.verifyChecksumsOnRead = b.verifyChecksumsOnRead;
        this.corruptionPolicy = b.corruptionPolicy;
        this.meterRegistry = b.meterRegistry == null ? new CompositeMeterRegistry() : b.meterRegistry;
        this.meterRegistryGiven = b.meterRegistry != null;
        this.perQueueMeters = b.perQueueMeters;
        this.timeSource = b.timeSource;
        this.maxOpenSegmentFiles = b.maxOpenSegmentFiles;
        this.openQueuesInBackground = b.openQueuesInBackground;

        this.transientMemoryLimit = b.transientMemoryLimit;
        this.transientMemoryLimitPerQueue = b.transientMemoryLimitPerQueue;
        this.transientMemoryPolicy = b.transientMemoryPolicy;
        this.transientMemoryBlockTimeout = b.transientMemoryBlockTimeout;
    }

    public static EngineConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.defaultDurability = defaultDurability;
        b.flushInterval = flushInterval;
        b.maxRecordBytes = maxRecordBytes;
        b.maxBatchBytes = maxBatchBytes;
        b.indexIntervalBytes = indexIntervalBytes;
        b.cacheBytesPerQueue = cacheBytesPerQueue;
        b.paceProducersAbove = paceProducersAbove;
        b.taskWindow = taskWindow;
        b.preallocateBytes = preallocateBytes;
        b.minFreeDiskBytes = minFreeDiskBytes;
        b.housekeepingInterval = housekeepingInterval;
        b.compactionKeyMapBytes = compactionKeyMapBytes;
        b.verifyChecksumsOnRead = verifyChecksumsOnRead;
        b.corruptionPolicy = corruptionPolicy;
        b.meterRegistry = meterRegistryGiven ? meterRegistry : null;
        b.perQueueMeters = perQueueMeters;
        b.timeSource = timeSource;
        b.maxOpenSegmentFiles = maxOpenSegmentFiles;
        b.openQueuesInBackground = openQueuesInBackground;

        b.transientMemoryLimit = transientMemoryLimit;
        b.transientMemoryLimitPerQueue = transientMemoryLimitPerQueue;
        b.transientMemoryPolicy = transientMemoryPolicy;
        b.transientMemoryBlockTimeout = transientMemoryBlockTimeout;
        return b;
    }

    /** Durability of queues created without an explicit one. Default {@code ASYNC}. */
    public Durability defaultDurability() {
        return defaultDurability;
    }

    /** How often asynchronously written data is fsynced. Default 200 ms. */
    public Duration flushInterval() {
        return flushInterval;
    }

    /** Largest record (key + headers + payload, encoded). Default 8 MiB. */
    public int maxRecordBytes() {
        return maxRecordBytes;
    }

    /** Largest batch accepted in one append call. Default 64 MiB. */
    public int maxBatchBytes() {
        return maxBatchBytes;
    }

    /** Bytes of log between two sparse index entries. Default 4 KiB. */
    public int indexIntervalBytes() {
        return indexIntervalBytes;
    }

    /** Size of each queue's ring cache of recent records (at most 4096 batches). Default 32 MiB. */
    public long cacheBytesPerQueue() {
        return cacheBytesPerQueue;
    }

    /**
     * Producer pacing: while a task queue holds more ready tasks than this and its consumers are taking tasks,
     * an enqueue waits (briefly, {@link #PACING_MAX_WAIT} at most) until the consumers have brought the backlog
     * under it. Keeps a queue whose consumers are busy from growing a backlog (memory, cold reads) that slows them
     * further; a queue nobody consumes from buffers at full speed. 0: off. Default 8,192.
     */
    public int paceProducersAbove() {
        return paceProducersAbove;
    }

    /**
     * The ready tasks a task queue keeps in memory: past this many, further ready tasks stay in the queue's log
     * only (counted, not held) and are read back in order as the queue's consumers empty the window, so memory does
     * not grow with the backlog. Delayed, leased and returned tasks are always held. 0: every task in memory.
     * Default 32,768.
     */
    public int taskWindow() {
        return taskWindow;
    }

    /** The longest one enqueue waits for room under {@link #paceProducersAbove()}. */
    public static final Duration PACING_MAX_WAIT = Duration.ofMillis(50);

    /** Zero-filled space kept ahead of the write position so fsyncs overwrite instead of growing a file. Default 4 MiB. */
    public long preallocateBytes() {
        return preallocateBytes;
    }

    /** Appends fail fast with {@link StorageFullException} when the disk has less free space than this. Default 64 MiB. */
    public long minFreeDiskBytes() {
        return minFreeDiskBytes;
    }

    /** How often retention and compaction run in the background. Default 30 s. */
    public Duration housekeepingInterval() {
        return housekeepingInterval;
    }

    /**
     * Memory of compaction's key map: 24 bytes per distinct key (a 16-byte digest and an offset), used up to three
     * quarters. A compaction whose log has more distinct keys than fit compacts in several passes, each over the
     * part whose keys fit. Default 16 MiB (about 520,000 keys per pass).
     */
    public long compactionKeyMapBytes() {
        return compactionKeyMapBytes;
    }

    /** Check CRC32C of every batch read from disk. Default on. */
    public boolean verifyChecksumsOnRead() {
        return verifyChecksumsOnRead;
    }

    public CorruptionPolicy corruptionPolicy() {
        return corruptionPolicy;
    }

    /** Where meters are registered; a registry that records nothing unless one is given. */
    public MeterRegistry meterRegistry() {
        return meterRegistry;
    }

    /**
     * Whether each queue registers its meters ({@code mikyu.queue.*}, {@code mikyu.group.lag}) in
     * {@link #meterRegistry()}; when not, they are read at scrape time through the engine's
     * {@code spi.QueueMeterSource}. Default: when a registry is given.
     */
    public boolean perQueueMeters() {
        return perQueueMeters != null ? perQueueMeters : meterRegistryGiven;
    }

    /** The clocks the store reads: wall time for timestamps and retention, steady time for every duration. */
    /**
     * The most segment file channels the store keeps open (segments, task queues and groups of every queue);
     * idle ones beyond it are closed and reopened on use. Default 1024.
     */
    public int maxOpenSegmentFiles() {
        return maxOpenSegmentFiles;
    }

    /**
     * Whether the store, once open, opens the queues nobody has used yet on a background thread (default: yes).
     * Without it a queue found at open stays unread until its first use; its retention by time and the sweep of
     * large bodies wait for that.
     */
    public boolean openQueuesInBackground() {
        return openQueuesInBackground;
    }

    public TimeSource timeSource() {
        return timeSource;
    }

    // ------------------------------------------------------------------------- transient-task memory limit

    /**
     * Most memory the store's transient tasks ({@link TaskQueue#enqueueTransient}, JMS NON_PERSISTENT queue
     * messages) may take, all queues together, estimated as payload + headers + per-task overhead. 0: no limit.
     * Default a quarter of the maximum heap ({@link #DEFAULT_TRANSIENT_HEAP_FRACTION}).
     */
    public long transientMemoryLimit() {
        return transientMemoryLimit;
    }

    /** The same limit for each task queue on its own (a dead-letter queue is a queue of its own). 0: none. Default 0. */
    public long transientMemoryLimitPerQueue() {
        return transientMemoryLimitPerQueue;
    }

    /** What an enqueue over a transient-memory limit does. Default {@link TransientMemoryPolicy#BLOCK}. */
    public TransientMemoryPolicy transientMemoryPolicy() {
        return transientMemoryPolicy;
    }

    /** How long a {@link TransientMemoryPolicy#BLOCK blocked} transient enqueue waits before it fails. Default 30 s. */
    public Duration transientMemoryBlockTimeout() {
        return transientMemoryBlockTimeout;
    }

    /**
     * The default {@link #transientMemoryLimit()} as a fraction of {@link Runtime#maxMemory()}: a quarter leaves the
     * rest of the heap to the queues' caches, consumers' prefetch and the application.
     */
    public static final double DEFAULT_TRANSIENT_HEAP_FRACTION = 0.25;

    public static final class Builder {
        private int maxOpenSegmentFiles = 1024;
        private boolean openQueuesInBackground = true;
        private Durability defaultDurability = Durability.ASYNC;
        private Duration flushInterval = Duration.ofMillis(200);
        private int maxRecordBytes = 8 * 1024 * 1024;
        private int maxBatchBytes = 64 * 1024 * 1024;
        private int indexIntervalBytes = 4096;
        private long cacheBytesPerQueue = 32L * 1024 * 1024;
        private int paceProducersAbove = 8_192;
        private int taskWindow = 32_768;
        private long preallocateBytes = 4L * 1024 * 1024;
        private long minFreeDiskBytes = 64L * 1024 * 1024;
        private Duration housekeepingInterval = Duration.ofSeconds(30);
        private long compactionKeyMapBytes = 16L * 1024 * 1024;
        private boolean verifyChecksumsOnRead = true;
        private CorruptionPolicy corruptionPolicy = CorruptionPolicy.QUARANTINE;
        private MeterRegistry meterRegistry;
        private Boolean perQueueMeters;
        private TimeSource timeSource = TimeSource.system();
        private long transientMemoryLimit = (long) (Runtime.getRuntime().maxMemory()
                * DEFAULT_TRANSIENT_HEAP_FRACTION);
        private long transientMemoryLimitPerQueue;
        private TransientMemoryPolicy transientMemoryPolicy = TransientMemoryPolicy.BLOCK;
        private Duration transientMemoryBlockTimeout = Duration.ofSeconds(30);

        public Builder defaultDurability(Durability value) {
            this.defaultDurability = Objects.requireNonNull(value);
            return this;
        }

        public Builder flushInterval(Duration value) {
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("flushInterval must be positive");
            }
            this.flushInterval = value;
            return this;
        }

        public Builder maxRecordBytes(int value) {
            if (value < 64) {
                throw new IllegalArgumentException("maxRecordBytes must be at least 64");
            }
            this.maxRecordBytes = value;
            return this;
        }

        public Builder maxBatchBytes(int value) {
            if (value < 64) {
                throw new IllegalArgumentException("maxBatchBytes must be at least 64");
            }
            this.maxBatchBytes = value;
            return this;
        }

        public Builder indexIntervalBytes(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("indexIntervalBytes must not be negative");
            }
            this.indexIntervalBytes = value;
            return this;
        }

        public Builder cacheBytesPerQueue(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("cacheBytesPerQueue must not be negative");
            }
            this.cacheBytesPerQueue = value;
            return this;
        }

        public Builder paceProducersAbove(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("paceProducersAbove must not be negative");
            }
            this.paceProducersAbove = value;
            return this;
        }

        public Builder taskWindow(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("taskWindow must not be negative");
            }
            this.taskWindow = value;
            return this;
        }

        public Builder preallocateBytes(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("preallocateBytes must not be negative");
            }
            this.preallocateBytes = value;
            return this;
        }

        public Builder minFreeDiskBytes(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("minFreeDiskBytes must not be negative");
            }
            this.minFreeDiskBytes = value;
            return this;
        }

        public Builder housekeepingInterval(Duration value) {
            this.housekeepingInterval = Objects.requireNonNull(value);
            return this;
        }

        /** Between 1 KiB and 16 GiB. */
        public Builder compactionKeyMapBytes(long value) {
            if (value < 1024 || value > (16L << 30)) {
                throw new IllegalArgumentException("compactionKeyMapBytes must be between 1 KiB and 16 GiB, not "
                        + value);
            }
            this.compactionKeyMapBytes = value;
            return this;
        }

        public Builder verifyChecksumsOnRead(boolean value) {
            this.verifyChecksumsOnRead = value;
            return this;
        }

        public Builder corruptionPolicy(CorruptionPolicy value) {
            this.corruptionPolicy = Objects.requireNonNull(value);
            return this;
        }

        public Builder meterRegistry(MeterRegistry value) {
            this.meterRegistry = value;
            return this;
        }

        /**
         * Whether each queue registers its meters in the meter registry (default: when a registry is given).
         * About 20 meters a queue: a store of many thousands of queues turns this off and reads them through
         * the engine's {@code spi.QueueMeterSource} when scraped, as the broker daemon does.
         */
        public Builder perQueueMeters(boolean value) {
            this.perQueueMeters = value;
            return this;
        }

        /** See {@link EngineConfig#openQueuesInBackground()}. */
        public Builder openQueuesInBackground(boolean value) {
            this.openQueuesInBackground = value;
            return this;
        }

        public Builder maxOpenSegmentFiles(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxOpenSegmentFiles must be at least 1");
            }
            this.maxOpenSegmentFiles = value;
            return this;
        }

        /** The store's clocks; {@link TimeSource#system()} unless a test steps its own. */
        public Builder timeSource(TimeSource value) {
            this.timeSource = Objects.requireNonNull(value);
            return this;
        }

        /** Bytes, 0 for none. */
        public Builder transientMemoryLimit(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("transientMemoryLimit must not be negative");
            }
            this.transientMemoryLimit = value;
            return this;
        }

        /** Bytes, 0 for none. */
        public Builder transientMemoryLimitPerQueue(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("transientMemoryLimitPerQueue must not be negative");
            }
            this.transientMemoryLimitPerQueue = value;
            return this;
        }

        public Builder transientMemoryPolicy(TransientMemoryPolicy value) {
            this.transientMemoryPolicy = Objects.requireNonNull(value);
            return this;
        }

        public Builder transientMemoryBlockTimeout(Duration value) {
            if (value.isNegative()) {
                throw new IllegalArgumentException("transientMemoryBlockTimeout must not be negative");
            }
            this.transientMemoryBlockTimeout = value;
            return this;
        }

        public EngineConfig build() {
            if (maxRecordBytes > maxBatchBytes) {
                throw new IllegalArgumentException("maxRecordBytes (" + maxRecordBytes
                        + ") must not exceed maxBatchBytes (" + maxBatchBytes + ")");
            }
            return new EngineConfig(this);
        }
    }
}
