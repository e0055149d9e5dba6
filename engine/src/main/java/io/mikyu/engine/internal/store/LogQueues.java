package io.mikyu.engine.internal.store;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.log.OpenSegmentFiles;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.task.OffsetStore;
import io.mikyu.engine.internal.task.SharedGroupHandle;
import io.mikyu.engine.internal.task.TaskQueueHandle;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.function.Consumer;

/**
 * The store's log queues ({@code <data>/log/<name>/}) with their offsets and shared groups, by name. The shared
 * groups' dead-letter queues are task queues, kept in {@link TaskQueues}. Create and delete are serialized by the
 * store.
 */
final class LogQueues extends QueueRegistry<LogQueueHandle, LogQueueConfig> {

    private static final Logger LOG = LoggerFactory.getLogger(LogQueues.class);

    private final EngineConfig config;
    private final GroupCommitWriter writer;
    private final ByteBuffer writerScratch;
    private final TaskQueues tasks;
    private final Consumer<List<TxOp>> transactions;
    private final OpenSegmentFiles files;
    private final QueueMeterTable meterTable;

    LogQueues(Path root, EngineConfig config, GroupCommitWriter writer, ByteBuffer writerScratch,
              OpenSegmentFiles files, QueueMeterTable meterTable,
              Consumer<RecoveryReport.Event> recovery, TaskQueues tasks, Consumer<List<TxOp>> transactions) {
        super(root, recovery, "log queue");
        this.transactions = transactions;
        this.config = config;
        this.writer = writer;
        this.writerScratch = writerScratch;
        this.files = files;
        this.meterTable = meterTable;
        this.tasks = tasks;
        tasks.openOwnersWith(this::find);
    }

    @Override
    LogQueueConfig readConfig(Path dir) throws IOException {
        return QueueConfigFile.read(dir);
    }

    /** The settings and the first segment; the offsets file is written with the first consumer group. */
    @Override
    void prepare(Path tmp, LogQueueConfig queueConfig) throws IOException {
        QueueConfigFile.writeNew(tmp, queueConfig);
        SegmentedLog.prepareFirstSegment(tmp);
    }

    @Override
    LogQueueHandle open(String name, Path dir, LogQueueConfig queueConfig) throws IOException {
        SegmentedLog log = SegmentedLog.open(name, "log queue", dir, queueConfig, config, writerScratch,
                files, recovery::accept);
        OffsetStore offsets = OffsetStore.open(dir, config, recovery);
        SharedGroups shared = new SharedGroups(log, offsets, writer, config, recovery, new SharedGroups.Opener() {
            @Override
            public SegmentedLog openLog(String groupName, Path groupDir, LogQueueConfig c) throws IOException {
                return SegmentedLog.open(groupName, "shared group", groupDir, c, config, writerScratch,
                        files, recovery::accept);
            }

            @Override
            public TaskQueueHandle openDeadLetters(String dlqName, Path dlqDir, TaskQueueConfig c)
                    throws IOException {
                return tasks.openOne(dlqName, dlqDir, c, null);
            }

            @Override
            public void commit(List<TxOp> ops) {
                transactions.accept(ops);
            }

            @Override
            public void forgetDeadLetters(TaskQueueHandle dlq) {
                tasks.closeAndForget(List.of(dlq));
            }

            @Override
            public void opened(SharedGroupHandle group) {
                tasks.due().track(group);
            }
        });
        return new LogQueueHandle(log, offsets, writer, config, new QueueMeters(meterTable, log, "log"),
                shared);
    }

    /** Deletes a log queue with its offsets, shared groups and their dead letters; {@code false} if none. */
    boolean delete(String name) {
        if (find(name) == null) { // a queue not opened yet opens first: its shared groups' dead letters with it
            return false;
        }
        LogQueueHandle handle = queues.remove(name);
        if (handle == null) {
            return false;
        }
        handle.storage().awaitMaintenance();
        List<TaskQueueHandle> groupDlqs = new ArrayList<>();
        for (SharedGroupHandle g : handle.shared().all()) {
            TaskQueueHandle dlq = tasks.find(name + ":" + g.name() + TaskQueue.DEAD_LETTER_SUFFIX);
            if (dlq != null) {
                groupDlqs.add(dlq);
            }
        }
        tasks.closeAndForget(groupDlqs);
        writer.execute(() -> {
            close(handle, false);
            return null;
        });
        deleteFolder(name, handle.storage().dir());
        return true;
    }

    /** Writer thread: closes a queue with its shared groups' state logs, and removes its meters. */
    private static void close(LogQueueHandle h, boolean clean) {
        for (SharedGroupHandle g : h.shared().all()) {
            try {
                g.stateLog().close(clean);
            } catch (IOException e) {
                LOG.error("closing {} failed", g.stateLog().describe(), e);
            }
            g.wakeAll();
        }
        try {
            h.storage().close(clean);
            h.offsets().close();
        } catch (IOException e) {
            LOG.error("closing {} failed; it will be recovered on the next open", h.storage().describe(), e);
        }
        h.meters().close();
    }

    /**
     * Opens the queues not opened yet that have shared groups, whose dead-letter queues the task queues' list
     * names: one look at each such queue's folder, no file opened for the others.
     */
    void openThoseWithSharedGroups() {
        for (Map.Entry<String, Path> e : unopened().entrySet()) {
            Path groups = e.getValue().resolve(SharedGroups.DIRECTORY);
            if (!Files.isDirectory(groups)) {
                continue;
            }
            try (Stream<Path> entries = Files.list(groups)) {
                if (entries.anyMatch(d -> !d.getFileName().toString().startsWith("."))) {
                    find(e.getKey());
                }
            } catch (IOException ex) {
                throw new UncheckedIOException("listing the shared groups of log queue '" + e.getKey() + "'", ex);
            }
        }
    }

    /** Makes every shared group's committed offset durable (housekeeping and close). */
    void checkpointSharedGroups() {
        for (LogQueueHandle h : queues.values()) {
            try {
                h.shared().checkpointAll();
            } catch (RuntimeException e) {
                LOG.warn("checkpointing the shared groups of {} failed", h.storage().describe(), e);
            }
        }
    }

    /** Writer thread, on store close or a failed open: closes every queue. */
    void closeAll(boolean clean) {
        for (LogQueueHandle h : queues.values()) {
            close(h, clean);
        }
    }
}
