package io.mikyu.engine.internal.store;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.log.OpenSegmentFiles;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.memory.TransientMemory;
import io.mikyu.engine.internal.task.DueLedgers;
import io.mikyu.engine.internal.task.TaskQueueHandle;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The store's task queues ({@code <data>/task/<name>/}), each with its dead-letter queue in {@code dlq/}, and the
 * dead-letter queues of shared groups, all by name. The store serializes create and delete of one name (a queue's
 * dead-letter queue's name counting as its queue's), not of different names.
 */
final class TaskQueues extends QueueRegistry<TaskQueueHandle, TaskQueueConfig> {

    private static final Logger LOG = LoggerFactory.getLogger(TaskQueues.class);
    /** The subfolder of a task queue's folder that holds its dead-letter queue. */
    static final String DLQ_DIRECTORY = "dlq";

    private final EngineConfig config;
    private final GroupCommitWriter writer;
    private final ByteBuffer writerScratch;
    /** Commits a store transaction: how dead letters move atomically. */
    private final Consumer<List<TxOp>> transactions;
    private final OpenSegmentFiles files;
    private final QueueMeterTable meterTable;
    private final ConcurrentHashMap<String, QueueMeters> meters = new ConcurrentHashMap<>();
    /** Opens a log queue by name, so that its shared groups' dead-letter queues are registered here. */
    private volatile Consumer<String> owners = name -> { };
    /** What the queues' transient tasks take, against the store's limits. */
    private final TransientMemory transientMemory;
    private final DueLedgers due = new DueLedgers();

    TaskQueues(Path root, EngineConfig config, GroupCommitWriter writer, ByteBuffer writerScratch,
               OpenSegmentFiles files, QueueMeterTable meterTable,
               Consumer<RecoveryReport.Event> recovery, Consumer<List<TxOp>> transactions) {
        super(root, recovery, "task queue");
        this.transactions = transactions;
        this.config = config;
        this.writer = writer;
        this.writerScratch = writerScratch;
        this.files = files;
        this.meterTable = meterTable;
        this.transientMemory = new TransientMemory(config);
    }

    /** The task queues and shared groups waiting for a lease or a delay to end: what the timer visits. */
    DueLedgers due() {
        return due;
    }

    @Override
    TaskQueueConfig readConfig(Path dir) throws IOException {
        return QueueConfigFile.readTask(dir);
    }

    /**
     * The settings, the dead-letter folder and both first segments, so that opening the new queue writes nothing:
     * the folder's fsync covers every entry but those of {@code dlq/}, fsynced here.
     */
    @Override
    void prepare(Path tmp, TaskQueueConfig queueConfig) throws IOException {
        Path dlq = Files.createDirectory(tmp.resolve(DLQ_DIRECTORY));
        QueueConfigFile.writeNew(tmp, queueConfig);
        SegmentedLog.prepareFirstSegment(tmp);
        SegmentedLog.prepareFirstSegment(dlq);
        Directories.fsync(dlq);
    }

    /** How a shared group's dead-letter queue ({@code <log>:<group>/dlq}) gets its log queue opened. */
    void openOwnersWith(Consumer<String> logQueues) {
        this.owners = logQueues;
    }

    /**
     * Also a dead-letter queue whose owner is not open yet: a task queue's opens with it, a shared group's with
     * its log queue.
     */
    @Override
    TaskQueueHandle find(String name) {
        TaskQueueHandle handle = super.find(name);
        if (handle != null || !name.endsWith(TaskQueue.DEAD_LETTER_SUFFIX)) {
            return handle;
        }
        String owner = name.substring(0, name.length() - TaskQueue.DEAD_LETTER_SUFFIX.length());
        int colon = owner.indexOf(':');
        if (colon < 0) {
            super.find(owner);
        } else {
            owners.accept(owner.substring(0, colon));
        }
        return queues.get(name);
    }

    @Override
    List<String> namesOfUnopened(String name) {
        return List.of(name, name + TaskQueue.DEAD_LETTER_SUFFIX);
    }

    @Override
    void forgetFailedCreate(String name) {
        TaskQueueHandle dlq = queues.get(name + TaskQueue.DEAD_LETTER_SUFFIX);
        if (dlq != null) {
            closeAndForget(List.of(dlq));
        }
    }

    /** Opens a task queue and its dead-letter queue, registering both. */
    @Override
    TaskQueueHandle open(String name, Path dir, TaskQueueConfig queueConfig) throws IOException {
        Path dlqDir = dir.resolve(DLQ_DIRECTORY);
        Files.createDirectories(dlqDir);
        TaskQueueHandle dlq = openOne(name + TaskQueue.DEAD_LETTER_SUFFIX, dlqDir,
                queueConfig.withMaxAttempts(TaskQueueConfig.UNLIMITED_ATTEMPTS), null);
        return openOne(name, dir, queueConfig, dlq);
    }

    /** Opens and registers one task queue (also a shared group's dead-letter queue). */
    TaskQueueHandle openOne(String name, Path dir, TaskQueueConfig c, TaskQueueHandle dlq) throws IOException {
        Files.createDirectories(dir);
        LogQueueConfig logConfig = LogQueueConfig.defaults().withDurability(c.durability())
                .withSegmentBytes(c.segmentBytes());
        SegmentedLog log = SegmentedLog.open(name, "task queue", dir, logConfig, config, writerScratch,
                files, recovery::accept);
        TaskQueueHandle handle;
        try {
            handle = TaskQueueHandle.open(name, c, log, writer, config, dlq, transactions);
        } catch (RuntimeException e) {
            log.close(false);
            throw e;
        }
        QueueMeters m = new QueueMeters(meterTable, log, "task");
        m.taskCounts(handle::counts);
        due.track(handle);
        m.read(QueueMeterFamily.ACKED, handle, TaskQueueHandle::ackedCount);
        m.read(QueueMeterFamily.DEADLETTERED, handle, TaskQueueHandle::deadLetteredCount);
        TransientMemory.Account transientAccount = transientMemory.account(name);
        handle.countTransientMemory(transientAccount);
        m.read(QueueMeterFamily.TRANSIENT_BYTES, transientAccount, TransientMemory.Account::bytes);
        m.read(QueueMeterFamily.TRANSIENT_TASKS, transientAccount, TransientMemory.Account::tasks);
        queues.put(name, handle);
        meters.put(name, m);
        return handle;
    }

    /** Deletes a task queue with its dead-letter queue; {@code false} if there is none of that name. */
    boolean delete(String name) {
        if (name.endsWith(TaskQueue.DEAD_LETTER_SUFFIX) && find(name) != null) {
            throw new IllegalArgumentException("'" + name + "' is a dead-letter queue; it goes with its queue '"
                    + name.substring(0, name.length() - TaskQueue.DEAD_LETTER_SUFFIX.length()) + "'");
        }
        TaskQueueHandle handle = find(name); // a queue not opened yet opens first, its dead-letter queue with it
        if (handle == null) {
            return false;
        }
        TaskQueueHandle dlq = queues.get(name + TaskQueue.DEAD_LETTER_SUFFIX);
        closeAndForget(dlq == null ? List.of(handle) : List.of(handle, dlq));
        deleteFolder(name, handle.storage().dir());
        return true;
    }

    /** Unregisters and closes queues whose files are about to be deleted (on the writer thread). */
    void closeAndForget(Collection<TaskQueueHandle> closing) {
        for (TaskQueueHandle h : closing) {
            queues.remove(h.name());
            h.storage().awaitMaintenance();
        }
        writer.execute(() -> {
            for (TaskQueueHandle h : closing) {
                try {
                    h.storage().close(false);
                } catch (IOException e) {
                    LOG.warn("closing {} for deletion", h.name(), e);
                }
            }
            return null;
        });
        for (TaskQueueHandle h : closing) {
            h.releaseTransientMemory();
            h.wakeAll();
            QueueMeters m = meters.remove(h.name());
            if (m != null) {
                m.close();
            }
        }
    }

    /** Writer thread, on store close: closes every queue (cleanly, so reopening needs no scan). */
    void closeAll(boolean clean) {
        for (TaskQueueHandle t : queues.values()) {
            if (clean) {
                t.checkpointOnClose();
            }
            try {
                t.storage().close(clean);
            } catch (IOException e) {
                LOG.error("closing {} failed; it will be recovered on the next open", t.storage().describe(), e);
            }
            t.releaseTransientMemory();
            t.wakeAll();
        }
        meters.values().forEach(QueueMeters::close);
        transientMemory.close();
    }

    @Override
    void clear() {
        super.clear();
        meters.clear();
    }
}
