package io.mikyu.engine.internal.store;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.task.OffsetStore;
import io.mikyu.engine.internal.task.SharedGroupHandle;
import io.mikyu.engine.internal.task.TaskQueueHandle;
import io.mikyu.engine.internal.write.GroupCommitWriter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The shared consumer groups of one log queue, each in {@code <queue>/shared-groups/<group>/} with its state log
 * and, in {@code dlq/}, its dead-letter queue (registered with the store as task queue {@code <queue>:<group>/dlq}).
 */
final class SharedGroups {

    static final String DIRECTORY = "shared-groups";

    /** How the store opens the logs and dead-letter queues groups need. */
    interface Opener {
        SegmentedLog openLog(String name, Path dir, LogQueueConfig config) throws IOException;

        TaskQueueHandle openDeadLetters(String name, Path dir, TaskQueueConfig config) throws IOException;

        /** Commits a store transaction (a group's dead letters move as one). */
        void commit(List<io.mikyu.engine.internal.txn.TxOp> ops);

        /** Closes and unregisters a dead-letter queue whose files are about to be deleted. */
        void forgetDeadLetters(TaskQueueHandle dlq);

        /** Has the store's timer visit {@code group} whenever a lease of it will end. */
        void opened(SharedGroupHandle group);
    }

    private final SegmentedLog source;
    private final OffsetStore offsets;
    private final GroupCommitWriter writer;
    private final EngineConfig engine;
    private final Opener opener;
    private final ConcurrentHashMap<String, SharedGroupHandle> groups = new ConcurrentHashMap<>();
    /** Groups found with an unreadable queue.conf: not opened, their names kept from reuse. */
    private final java.util.Set<String> quarantined = ConcurrentHashMap.newKeySet();

    SharedGroups(SegmentedLog source, OffsetStore offsets, GroupCommitWriter writer, EngineConfig engine,
                 java.util.function.Consumer<io.mikyu.engine.RecoveryReport.Event> recovery, Opener opener)
            throws IOException {
        this.source = source;
        this.offsets = offsets;
        this.writer = writer;
        this.engine = engine;
        this.opener = opener;
        Path root = source.dir().resolve(DIRECTORY);
        if (Files.isDirectory(root)) {
            try (Stream<Path> dirs = Files.list(root)) {
                for (Path d : (Iterable<Path>) dirs::iterator) {
                    String name = d.getFileName().toString();
                    if (name.startsWith(".")) {
                        Directories.deleteRecursively(d);
                    } else if (Files.exists(d.resolve(QueueConfigFile.FILE_NAME))) {
                        SharedGroupConfig c;
                        try {
                            c = QueueConfigFile.readShared(d);
                        } catch (IOException | RuntimeException e) {
                            recovery.accept(QueueConfigFile.unreadable(d, "shared group", e));
                            quarantined.add(name);
                            continue;
                        }
                        groups.put(name, open(name, d, c));
                    }
                }
            }
        }
    }

    boolean contains(String name) {
        return groups.containsKey(name);
    }

    SharedGroupHandle get(String name) {
        return groups.get(name);
    }

    List<String> names() {
        return new ArrayList<>(groups.keySet());
    }

    synchronized SharedGroupHandle getOrCreate(String name, SharedGroupConfig config,
                                               java.util.function.LongSupplier startIfNew) {
        SharedGroupHandle g = groups.get(name);
        if (g != null) {
            return g;
        }
        if (quarantined.contains(name)) {
            throw new io.mikyu.engine.QueueExistsException(QueueConfigFile.quarantinedMessage("shared group", name));
        }
        Path root = source.dir().resolve(DIRECTORY);
        try {
            Directories.createDurably(root);
            Path dir = Directories.createAtomically(root, name, tmp -> {
                Files.createDirectories(tmp.resolve("dlq"));
                QueueConfigFile.write(tmp, config);
            });
            long start = startIfNew.getAsLong();
            if (start > source.startOffset()) {
                offsets.commit(name, start);
            }
            try {
                g = open(name, dir, config);
            } catch (IOException | RuntimeException e) {
                Directories.discard(dir, e); // so that the creation failed whole and can be tried again
                throw e;
            }
            groups.put(name, g);
            return g;
        } catch (IOException e) {
            throw new UncheckedIOException("creating shared group '" + name + "' of " + source.describe(), e);
        }
    }

    /**
     * Deletes a shared group with its state and dead letters; {@code false} if there is none of that name.
     * Its members' next calls fail as closed.
     */
    synchronized boolean delete(String name) {
        SharedGroupHandle g = groups.remove(name);
        if (g == null) {
            return false;
        }
        g.stateLog().awaitMaintenance();
        writer.execute(() -> {
            try {
                g.stateLog().close(false);
            } catch (IOException e) {
                throw new UncheckedIOException("closing shared group '" + name + "'", e);
            }
            return null;
        });
        g.wakeAll();
        if (g.deadLetters() instanceof TaskQueueHandle dlq) {
            opener.forgetDeadLetters(dlq);
        }
        offsets.commit(name, io.mikyu.engine.internal.format.OffsetsDescriptor.DELETED);
        try {
            Directories.deleteAtomically(g.stateLog().dir());
        } catch (IOException e) {
            throw new UncheckedIOException("deleting shared group '" + name + "' of " + source.describe(), e);
        }
        return true;
    }

    private SharedGroupHandle open(String name, Path dir, SharedGroupConfig config) throws IOException {
        TaskQueueHandle dlq = opener.openDeadLetters(source.name() + ":" + name + "/dlq", dir.resolve("dlq"),
                config.redelivery().withMaxAttempts(TaskQueueConfig.UNLIMITED_ATTEMPTS));
        LogQueueConfig stateConfig = LogQueueConfig.defaults().withDurability(config.redelivery().durability())
                .withSegmentBytes(config.redelivery().segmentBytes());
        SegmentedLog stateLog = opener.openLog(source.name() + ":" + name, dir, stateConfig);
        SharedGroupHandle group = SharedGroupHandle.open(name, source, offsets, config, stateLog, writer, engine, dlq,
                opener::commit);
        opener.opened(group);
        return group;
    }

    List<SegmentedLog> stateLogs() {
        List<SegmentedLog> logs = new ArrayList<>(groups.size());
        for (SharedGroupHandle g : groups.values()) {
            logs.add(g.stateLog());
        }
        return logs;
    }

    List<SharedGroupHandle> all() {
        return new ArrayList<>(groups.values());
    }

    void checkpointAll() {
        for (SharedGroupHandle g : groups.values()) {
            g.checkpoint();
        }
    }
}
