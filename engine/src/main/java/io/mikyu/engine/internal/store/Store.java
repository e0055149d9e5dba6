package io.mikyu.engine.internal.store;

import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.EngineStats;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.spi.QueueMeterSource;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.log.OpenSegmentFiles;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.write.WriterMetrics;
import io.mikyu.engine.internal.task.SharedGroupHandle;
import io.mikyu.engine.internal.txn.TransactionHandle;
import io.mikyu.engine.internal.txn.TransactionManager;
import io.mikyu.engine.internal.txn.TxParticipant;
import io.mikyu.engine.internal.txn.TxTarget;
import io.mikyu.engine.internal.task.TaskQueueHandle;
import io.mikyu.engine.internal.write.BackgroundFlusher;
import io.mikyu.engine.internal.write.DiskSpaceGuard;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import io.micrometer.core.instrument.Gauge;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The in-process {@link Mikyu}: one data directory, one writer thread, the queues found in it.
 *
 * <pre>
 *   &lt;data&gt;/mikyu.lock          owner's pid (OS lock held while open)
 *   &lt;data&gt;/FORMAT              magic line and store format version ({@link StoreFormat})
 *   &lt;data&gt;/store.id            the store's identity ({@link StoreIdFile})
 *   &lt;data&gt;/log/&lt;name&gt;/queue.conf, *.seg, *.idx, offsets.log, quarantine/, shared-groups/
 *   &lt;data&gt;/task/&lt;name&gt;/...      (task queues)
 * </pre>
 */
public final class Store implements Mikyu, QueueMeterSource {

    private static final Logger LOG = LoggerFactory.getLogger(Store.class);
    /**
     * The writer's staging buffer, and so the size of its writes. Small on purpose: the kernel copies a write from
     * this buffer into the page cache, and a buffer that still sits in the core's cache copies several times
     * faster. Measured on the development VM (2 GiB of pwrite from one direct buffer): 32-64 KiB writes ran at
     * about 3.6 GB/s, 1 MiB writes at 0.7 GB/s.
     */
    private static final int WRITER_SCRATCH_BYTES = 64 * 1024;

    /** The transaction log's folder under the data directory. */
    private static final String TXN_DIRECTORY = "txn";
    /** Requests one group commit takes at most, in bytes; more wait for the next cycle. */
    private static final long MAX_CYCLE_BYTES = 4L << 20;

    private final Path dataDir;
    private final String storeId;
    private final EngineConfig config;
    private final DataDirectoryLock lock;
    private final GroupCommitWriter writer;
    private final WriterMetrics writerMetrics;
    private final ClaimRegistry claims = new ClaimRegistry();
    private final DiskSpaceGuard diskGuard;
    private final ByteBuffer writerScratch = ByteBuffer.allocateDirect(WRITER_SCRATCH_BYTES);
    private final LogQueues logs;
    /** The bound on open segment files, shared by every log of the store. */
    private final OpenSegmentFiles files;
    /** Task queues by name, dead-letter queues ({@code <name>/dlq}) included. */
    private final TaskQueues tasks;
    private final StoreBodies bodies;
    private final ScheduledExecutorService housekeeper;
    private final BackgroundFlusher flusher;
    /** Redelivers and dead-letters on time, whether or not anyone is dequeuing. */
    private final ScheduledExecutorService timer;
    private static final long TICK_MILLIS = 100;
    private TransactionManager transactions;
    /** Creates of different names run at once; deletes and the close alone. */
    private final CatalogLocks catalogLocks = new CatalogLocks();
    private final List<RecoveryReport.Event> recoveryEvents = Collections.synchronizedList(new ArrayList<>());
    /** How long the store's own open took (the queues open later: on first use, or in the background). */
    private final long openMillis;
    /** Opens, after the store's open, the queues nobody has asked for yet; null when the config says not to. */
    private final BackgroundOpener backgroundOpener;
    private volatile boolean closed;
    private final StoreChores chores;
    private final QueueMeterTable queueMeters;

    private Store(Path dataDir, EngineConfig config, DataDirectoryLock lock) throws IOException {
        long started = System.nanoTime();
        this.dataDir = dataDir;
        this.config = config;
        this.lock = lock;
        checkFormat();
        this.storeId = StoreIdFile.loadOrCreate(dataDir).toString();
        this.diskGuard = new DiskSpaceGuard(dataDir, config.minFreeDiskBytes(), config.timeSource());
        this.writerMetrics = new WriterMetrics(config.meterRegistry());
        this.files = new OpenSegmentFiles(config.maxOpenSegmentFiles());
        this.writer = new GroupCommitWriter("mikyu-writer", MAX_CYCLE_BYTES, diskGuard, writerMetrics);
        this.queueMeters = new QueueMeterTable(config);
        this.tasks = new TaskQueues(dataDir.resolve(QueueKind.TASK.directory()), config, writer, writerScratch, files,
                queueMeters, this::recovered, this::commitInternal);
        this.logs = new LogQueues(dataDir.resolve(QueueKind.LOG.directory()), config, writer, writerScratch, files,
                queueMeters, this::recovered, tasks, this::commitInternal);
        try {
            logs.load();
            tasks.load();
            if (config.corruptionPolicy() == EngineConfig.CorruptionPolicy.FAIL) {
                // refusing to open over damage means reading every queue before the open returns
                logs.openAll();
                tasks.openAll();
            }
            openTransactions();
            bodies = new StoreBodies(dataDir, tasks, logs,
                    () -> transactions.inDoubtCount() > 0 || logs.anyUnopened() || tasks.anyUnopened());
            chores = new StoreChores(tasks, logs, files, transactions, bodies, () -> closed);
        } catch (IOException | RuntimeException e) {
            writer.close();
            if (transactions != null) {
                try {
                    transactions.log().close(false);
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            try {
                tasks.closeAll(false);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            try {
                logs.closeAll(false);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            writerMetrics.close();
            throw e;
        }
        writerMetrics.own(Gauge.builder("mikyu.engine.disk.bytes", this, Store::bytesOnDiskIfAllOpen).baseUnit("bytes")
                .register(config.meterRegistry()));
        writerMetrics.own(Gauge.builder("mikyu.engine.disk.free", diskGuard, DiskSpaceGuard::freeBytes)
                .baseUnit("bytes").register(config.meterRegistry()));
        writerMetrics.own(io.micrometer.core.instrument.FunctionCounter.builder("mikyu.engine.housekeeping.failures",
                        chores, StoreChores::housekeepingFailures)
                .description("housekeeping steps (retention, compaction, checkpoints, cleanup) that failed")
                .register(config.meterRegistry()));
        writerMetrics.own(Gauge.builder("mikyu.engine.segment.files.open", files, OpenSegmentFiles::openCount)
                .description("segment file channels open (bounded by maxOpenSegmentFiles)")
                .register(config.meterRegistry()));
        writerMetrics.own(io.micrometer.core.instrument.FunctionCounter.builder("mikyu.engine.segment.files.closed",
                        files, OpenSegmentFiles::closedToMakeRoom)
                .description("idle segment file channels closed to stay within maxOpenSegmentFiles")
                .register(config.meterRegistry()));
        TransactionManager txns = transactions;
        writerMetrics.own(Gauge.builder("mikyu.engine.transactions.indoubt", txns, TransactionManager::inDoubtCount)
                .description("transactions prepared and not yet decided").register(config.meterRegistry()));
        writerMetrics.own(Gauge.builder("mikyu.engine.transactions.indoubt.age", txns,
                        TransactionManager::oldestInDoubtSeconds).baseUnit("seconds")
                .description("time since the oldest in-doubt transaction was prepared; 0 when none is")
                .register(config.meterRegistry()));
        this.openMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        this.flusher = new BackgroundFlusher(this::allLogs, config.flushInterval().toNanos(), writerMetrics,
                txns::confirmDurable, files::dirtiedCount);
        this.housekeeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mikyu-housekeeper");
            t.setDaemon(true);
            return t;
        });
        long every = Math.max(1, config.housekeepingInterval().toMillis());
        housekeeper.scheduleWithFixedDelay(chores::housekeeping, every, every, TimeUnit.MILLISECONDS);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mikyu-timer");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(chores::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        this.backgroundOpener = config.openQueuesInBackground() && (logs.anyUnopened() || tasks.anyUnopened())
                ? new BackgroundOpener(List.of(logs, tasks)) : null;
    }

    /** The task queues and shared groups the timer visits now (tests). */
    int timedQueues() {
        return tasks.due().size();
    }

    /** What recovery did, as it happens: at open for the transaction log, when each queue opens for the rest. */
    private void recovered(RecoveryReport.Event e) {
        recoveryEvents.add(e);
        if (e.kind() == RecoveryReport.Kind.CORRUPTION_QUARANTINED
                || e.kind() == RecoveryReport.Kind.QUEUE_QUARANTINED) {
            LOG.error("recovery: {}", e);
        } else {
            LOG.warn("recovery: {}", e);
        }
    }

    /** Opens every queue not opened yet (what sums over all queues needs). */
    private void openAllQueues() {
        try {
            logs.openAll();
            tasks.openAll();
        } catch (IOException e) {
            throw new UncheckedIOException("opening the queues of " + dataDir, e);
        }
    }

    /** How many queues opened after the store's open returned (first uses and the background opener). */
    int queuesOpenedLater() {
        return logs.openedLater() + tasks.openedLater();
    }

    /** Opens the store in {@code dataDir}, creating it (owner-only permissions) if needed. */
    public static Store open(Path dataDir, EngineConfig config) {
        Path dir = dataDir.toAbsolutePath().normalize();
        try {
            createPrivateDirectories(dir);
            DataDirectoryLock lock = DataDirectoryLock.acquire(dir);
            try {
                return new Store(dir, config, lock);
            } catch (IOException | RuntimeException | Error e) {
                lock.close(); // also after an Error (a class missing in an application server), or no retry could open
                throw e;
            }
        } catch (IOException e) {
            throw new MikyuException("cannot open data directory " + dir + ": " + e, e);
        }
    }

    private static void createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        if (posix) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(dir);
        }
    }

    private void checkFormat() throws IOException {
        StoreFormat.openOrUpgrade(dataDir);
        Directories.createDurably(dataDir.resolve(QueueKind.LOG.directory()));
        Directories.createDurably(dataDir.resolve(QueueKind.TASK.directory()));
    }

    private void openTransactions() throws IOException {
        Path dir = dataDir.resolve(TXN_DIRECTORY);
        Directories.createDurably(dir); // a prepared branch must not vanish with a directory never made durable
        LogQueueConfig c = LogQueueConfig.defaults().withDurability(io.mikyu.engine.Durability.SYNC)
                .withSegmentBytes(16L << 20);
        SegmentedLog log = SegmentedLog.open("transactions", "transaction log", dir, c, config, writerScratch, files,
                this::recovered);
        transactions = new TransactionManager(log, writer, config, this::participant, writerMetrics);
        transactions.recover();
    }

    /** Resolves a transaction operation's target ({@code TxOp.target()}, a {@link TxTarget} name). */
    private TxParticipant participant(String target) {
        TxTarget t = TxTarget.parse(target);
        switch (t.kind()) {
            case LOG -> {
                return logs.get(t.queue());
            }
            case TASK -> {
                return tasks.get(t.queue());
            }
            case OFFSETS -> {
                return new OffsetCommitParticipant(logs.get(t.queue()), t.group());
            }
            case SHARED_GROUP -> {
                SharedGroupHandle g = logs.get(t.queue()).shared().get(t.group());
                if (g == null) {
                    throw new QueueNotFoundException("shared group '" + t.group() + "' of log queue '" + t.queue()
                            + "' does not exist");
                }
                return g;
            }
            default -> throw new IllegalArgumentException("unknown transaction target " + target);
        }
    }

    /** A transaction the engine itself commits (a move to a dead-letter queue). */
    private void commitInternal(List<io.mikyu.engine.internal.txn.TxOp> ops) {
        TransactionManager txns = transactions;
        if (txns == null) {
            throw new StoreClosedException("the transaction log of " + dataDir + " is not open yet");
        }
        txns.commit(ops);
    }

    @Override
    public Transaction beginTransaction() {
        checkOpen();
        return new TransactionHandle(transactions);
    }

    @Override
    public io.mikyu.engine.BodyUpload uploadBody() {
        checkOpen();
        return bodies.upload();
    }

    @Override
    public java.io.InputStream openBody(io.mikyu.engine.LargeBody body) {
        checkOpen();
        return bodies.open(body);
    }

    @Override
    public List<byte[]> preparedTransactions() {
        checkOpen();
        return transactions.preparedXids();
    }

    @Override
    public List<PreparedTransaction> inDoubtTransactions() {
        checkOpen();
        return transactions.inDoubt();
    }

    @Override
    public String storeId() {
        return storeId;
    }

    @Override
    public void commitPrepared(byte[] xid) {
        checkOpen();
        transactions.commitPrepared(xid);
    }

    @Override
    public void rollbackPrepared(byte[] xid) {
        checkOpen();
        transactions.rollbackPrepared(xid);
    }

    private List<SegmentedLog> allLogs() {
        List<SegmentedLog> all = new ArrayList<>(logs.size() + tasks.size() + 1);
        if (transactions != null) {
            all.add(transactions.log());
        }
        for (LogQueueHandle h : logs.all()) {
            all.add(h.storage());
            all.addAll(h.shared().stateLogs());
        }
        for (TaskQueueHandle t : tasks.all()) {
            all.add(t.storage());
        }
        return all;
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreClosedException("the store at " + dataDir + " is closed");
        }
    }

    @Override
    public LogQueue createLog(String name, LogQueueConfig queueConfig) {
        return catalogLocks.creatingLog(name, () -> {
            checkOpen();
            return logs.create(name, queueConfig);
        });
    }

    /** Uses the store's {@link EngineConfig#defaultDurability()}. */
    @Override
    public LogQueue createLog(String name) {
        return createLog(name, LogQueueConfig.defaults().withDurability(config.defaultDurability()));
    }

    @Override
    public LogQueue getOrCreateLog(String name, LogQueueConfig queueConfig) {
        checkOpen();
        LogQueueHandle found = logs.find(name);
        if (found != null) {
            return found;
        }
        return catalogLocks.creatingLog(name, () -> {
            checkOpen();
            LogQueueHandle existing = logs.find(name);
            return existing != null ? existing : logs.create(name, queueConfig);
        });
    }

    @Override
    public LogQueue log(String name) {
        checkOpen();
        return logs.get(name);
    }

    @Override
    public boolean deleteLog(String name) {
        return catalogLocks.alone(() -> {
            checkOpen();
            return logs.delete(name);
        });
    }

    @Override
    public TaskQueue createTaskQueue(String name, TaskQueueConfig queueConfig) {
        return catalogLocks.creatingTask(name, () -> {
            checkOpen();
            return tasks.create(name, queueConfig);
        });
    }

    @Override
    public TaskQueue createTaskQueue(String name) {
        return createTaskQueue(name, TaskQueueConfig.defaults().withDurability(config.defaultDurability()));
    }

    @Override
    public TaskQueue getOrCreateTaskQueue(String name, TaskQueueConfig queueConfig) {
        checkOpen();
        TaskQueueHandle found = tasks.find(name);
        if (found != null) {
            return found;
        }
        return catalogLocks.creatingTask(name, () -> {
            checkOpen();
            TaskQueueHandle existing = tasks.find(name);
            return existing != null ? existing : tasks.create(name, queueConfig);
        });
    }

    @Override
    public TaskQueue taskQueue(String name) {
        checkOpen();
        return tasks.get(name);
    }

    @Override
    public boolean deleteTaskQueue(String name) {
        return catalogLocks.alone(() -> {
            checkOpen();
            return tasks.delete(name);
        });
    }

    @Override
    public Claim claim(String name, ClaimMode mode) {
        checkOpen();
        return claims.claim(name, mode);
    }

    @Override
    public int claimHolders(String name) {
        checkOpen();
        return claims.holders(name);
    }

    @Override
    public boolean deleteGroupUnlessClaimed(String log, String group, String claim) {
        checkOpen();
        LogQueue queue = log(log);
        return claims.ifUnclaimed(claim, () -> queue.deleteGroup(group));
    }

    @Override
    public List<String> list(QueueKind kind) {
        checkOpen();
        if (kind == QueueKind.TASK) {
            logs.openThoseWithSharedGroups(); // their groups' dead-letter queues are task queues
            return tasks.names();
        }
        return logs.names();
    }

    /** Every open queue's meters, read now (what a metrics endpoint writes when they are not registered). */
    @Override
    public void visit(Visitor visitor, boolean detail) {
        queueMeters.visit(visitor, detail);
    }

    @Override
    public EngineStats stats() {
        openAllQueues();
        long records = 0;
        long bytes = 0;
        long hits = 0;
        long misses = 0;
        for (SegmentedLog log : allLogs()) {
            records += log.appendedRecords();
            bytes += log.appendedBytes();
            hits += log.cacheHits();
            misses += log.cacheMisses();
        }
        return new EngineStats(dataDir.toString(), logs.size(), tasks.size(), bytesOnDisk(), writerMetrics.commits(),
                writerMetrics.commitRequests(), writerMetrics.fsyncs(), records, bytes, hits, misses,
                diskGuard.freeBytes());
    }

    /** The disk gauge: unknown (NaN) until every queue is open, rather than a sum that leaves some out. */
    private double bytesOnDiskIfAllOpen() {
        return logs.anyUnopened() || tasks.anyUnopened() ? Double.NaN : bytesOnDisk();
    }

    private long bytesOnDisk() {
        long total = 0;
        for (SegmentedLog log : allLogs()) {
            total += log.bytesOnDisk();
        }
        return total;
    }

    @Override
    public RecoveryReport recoveryReport() {
        openAllQueues(); // what recovery found in every queue, and a queue recovers when it opens
        return new RecoveryReport(List.copyOf(recoveryEvents), openMillis);
    }

    @Override
    public String location() {
        return dataDir.toString();
    }

    @Override
    public void flush() {
        checkOpen();
        for (SegmentedLog log : allLogs()) {
            try {
                // Not the dirty mark: another thread's fsync clears it when it begins, not when its data is on
                // disk. What counts is whether an fsync that completed covers everything published so far.
                if (log.durableEnd() < log.endOffset() || log.failure() != null) {
                    log.force(); // a stopped log throws its failure: flush() never reports success over it
                }
            } catch (IOException e) {
                RuntimeException stopped = log.failure();
                throw stopped != null ? stopped : new UncheckedIOException("flushing " + log.describe(), e);
            }
        }
        transactions.confirmDurable();
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    @Override
    public void close() {
        boolean wasClosed = catalogLocks.alone(() -> { // waits for the creates and deletes under way
            synchronized (this) {
                boolean was = closed;
                closed = true;
                return was;
            }
        });
        if (wasClosed) {
            return;
        }
        if (backgroundOpener != null) {
            backgroundOpener.close();
        }
        logs.stopOpening();
        tasks.stopOpening();
        flusher.close();
        transactions.close();
        flusher.flushAll();
        transactions.confirmDurable(); // APPLIED for what the flush covered, so a reopen need not look for them
        timer.shutdownNow();
        housekeeper.shutdownNow();
        try {
            housekeeper.awaitTermination(30, TimeUnit.SECONDS);
            timer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        logs.checkpointSharedGroups();
        try {
            writer.execute(() -> {
                logs.closeAll(true);
                tasks.closeAll(true);
                try {
                    transactions.log().close(true);
                } catch (IOException e) {
                    LOG.error("closing the transaction log failed; it will be recovered on the next open", e);
                }
                return null;
            });
        } finally {
            writer.close();
            writerMetrics.close();
            logs.clear();
            tasks.clear();
            try {
                lock.close();
            } catch (IOException e) {
                LOG.warn("releasing the lock of {}", dataDir, e);
            }
        }
    }

    @Override
    public String toString() {
        return "Mikyu[" + dataDir + "]";
    }
}
