package io.mikyu.engine.internal.store;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.task.TaskQueueHandle;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.write.GroupCommitWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The store's task queues ({@code <data>/task/<name>/}), each with its dead-letter queue in {@code dlq/}, and the
 * dead-letter queues of shared groups, all by name. Create and delete are serialized by the store.
 */
final class TaskQueues {

    private static final Logger LOG = LoggerFactory.getLogger(TaskQueues.class);
    /** The subfolder of a task queue's folder that holds its dead-letter queue. */
    static final String DLQ_DIRECTORY = "dlq";

    private final Path root;
    private final EngineConfig config;
    private final GroupCommitWriter writer;
    private final ByteBuffer writerScratch;
    private final Consumer<RecoveryReport.Event> recovery;
    /** Commits a store transaction: how dead letters move atomically. */
    private final Consumer<List<TxOp>> transactions;
    private final ConcurrentHashMap<String, TaskQueueHandle> queues = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, QueueMeters> meters = new ConcurrentHashMap<>();
    /** Queues found with an unreadable queue.conf: not opened, their names kept from reuse. */
    private final java.util.Set<String> quarantined = ConcurrentHashMap.newKeySet();

    TaskQueues(Path root, EngineConfig config, GroupCommitWriter writer, ByteBuffer writerScratch,
               Consumer<RecoveryReport.Event> recovery, Consumer<List<TxOp>> transactions) {
        this.root = root;
        this.transactions = transactions;
        this.config = config;
        this.writer = writer;
        this.writerScratch = writerScratch;
        this.recovery = recovery;
    }

    /** Opens every task queue found under the root; removes leftovers of interrupted creates and deletes. */
    void load() throws IOException {
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (name.startsWith(".")) {
                    Directories.deleteRecursively(d);
                } else if (Files.isDirectory(d) && Files.exists(d.resolve(QueueConfigFile.FILE_NAME))) {
                    TaskQueueConfig c;
                    try {
                        c = QueueConfigFile.readTask(d);
                    } catch (IOException | RuntimeException e) {
                        recovery.accept(QueueConfigFile.unreadable(d, "task queue", e));
                        quarantined.add(name);
                        continue;
                    }
                    open(name, d, c);
                }
            }
        }
    }

    TaskQueueHandle create(String name, TaskQueueConfig queueConfig) {
        QueueNames.check("queue", name);
        if (queues.containsKey(name)) {
            throw new QueueExistsException("task queue '" + name + "' already exists");
        }
        if (quarantined.contains(name)) {
            throw new QueueExistsException(QueueConfigFile.quarantinedMessage("task queue", name));
        }
        try {
            Path dir = Directories.createAtomically(root, name, tmp -> {
                Files.createDirectories(tmp.resolve(DLQ_DIRECTORY));
                QueueConfigFile.write(tmp, queueConfig);
            });
            try {
                return open(name, dir, queueConfig);
            } catch (IOException | RuntimeException e) {
                // so that the creation failed whole and can be tried again
                TaskQueueHandle dlq = queues.get(name + TaskQueue.DEAD_LETTER_SUFFIX);
                if (dlq != null) {
                    closeAndForget(List.of(dlq));
                }
                Directories.discard(dir, e);
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("creating task queue '" + name + "' in " + root, e);
        }
    }

    TaskQueueHandle find(String name) {
        return queues.get(name);
    }

    TaskQueueHandle get(String name) {
        TaskQueueHandle handle = queues.get(name);
        if (handle == null) {
            throw new QueueNotFoundException("task queue '" + name + "' does not exist");
        }
        return handle;
    }

    /** Opens a task queue and its dead-letter queue, registering both. */
    private TaskQueueHandle open(String name, Path dir, TaskQueueConfig queueConfig) throws IOException {
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
                recovery::accept);
        TaskQueueHandle handle;
        try {
            handle = TaskQueueHandle.open(name, c, log, writer, config, dlq, transactions);
        } catch (RuntimeException e) {
            log.close(false);
            throw e;
        }
        QueueMeters m = new QueueMeters(config.meterRegistry(), log, "task");
        m.gauge("mikyu.queue.depth", handle, h -> h.counts().depth(), "unfinished tasks");
        m.gauge("mikyu.queue.ready", handle, h -> h.counts().ready(), "tasks deliverable now");
        m.gauge("mikyu.queue.scheduled", handle, h -> h.counts().scheduled(), "tasks waiting for their time");
        m.gauge("mikyu.queue.inflight", handle, h -> h.counts().inFlight(), "tasks under a lease");
        m.counter("mikyu.queue.acked", handle, TaskQueueHandle::ackedCount, "tasks acked");
        m.counter("mikyu.queue.deadlettered", handle, TaskQueueHandle::deadLetteredCount,
                "tasks moved to the dead-letter queue");
        queues.put(name, handle);
        meters.put(name, m);
        return handle;
    }

    /** Deletes a task queue with its dead-letter queue; {@code false} if there is none of that name. */
    boolean delete(String name) {
        if (name.endsWith(TaskQueue.DEAD_LETTER_SUFFIX) && queues.containsKey(name)) {
            throw new IllegalArgumentException("'" + name + "' is a dead-letter queue; it goes with its queue '"
                    + name.substring(0, name.length() - TaskQueue.DEAD_LETTER_SUFFIX.length()) + "'");
        }
        TaskQueueHandle handle = queues.get(name);
        if (handle == null) {
            return false;
        }
        TaskQueueHandle dlq = queues.get(name + TaskQueue.DEAD_LETTER_SUFFIX);
        closeAndForget(dlq == null ? List.of(handle) : List.of(handle, dlq));
        Path dir = handle.storage().dir();
        try {
            Directories.deleteAtomically(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("deleting task queue '" + name + "' at " + dir, e);
        }
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
            h.wakeAll();
            QueueMeters m = meters.remove(h.name());
            if (m != null) {
                m.close();
            }
        }
    }

    List<String> names() {
        List<String> names = new ArrayList<>(queues.keySet());
        Collections.sort(names);
        return names;
    }

    Collection<TaskQueueHandle> all() {
        return queues.values();
    }

    int size() {
        return queues.size();
    }

    /** Writer thread, on store close: closes every queue (cleanly, so reopening needs no scan). */
    void closeAll(boolean clean) {
        for (TaskQueueHandle t : queues.values()) {
            try {
                t.storage().close(clean);
            } catch (IOException e) {
                LOG.error("closing {} failed; it will be recovered on the next open", t.storage().describe(), e);
            }
            t.wakeAll();
        }
        meters.values().forEach(QueueMeters::close);
    }

    void clear() {
        queues.clear();
        meters.clear();
    }
}
