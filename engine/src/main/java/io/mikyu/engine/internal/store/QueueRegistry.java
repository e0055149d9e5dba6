package io.mikyu.engine.internal.store;

import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.internal.files.Directories;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The store's queues of one kind, by name, each in its own folder under {@code root} with its settings in
 * {@link QueueConfigFile}: loading them at open, creating one atomically, finding one. What a queue is made of and
 * how it opens and closes is the subclass's. Create and delete are serialized by the store.
 *
 * @param <H> the queue's handle
 * @param <C> the queue's settings
 */
abstract class QueueRegistry<H, C> {

    final Path root;
    final Consumer<RecoveryReport.Event> recovery;
    /** What the queues are, for messages: "log queue" or "task queue". */
    private final String kind;
    final ConcurrentHashMap<String, H> queues = new ConcurrentHashMap<>();
    /** Queues found with an unreadable queue.conf: not opened, their names kept from reuse. */
    private final Set<String> quarantined = ConcurrentHashMap.newKeySet();

    QueueRegistry(Path root, Consumer<RecoveryReport.Event> recovery, String kind) {
        this.root = root;
        this.recovery = recovery;
        this.kind = kind;
    }

    /** Reads the settings in a queue's folder. */
    abstract C readConfig(Path dir) throws IOException;

    /** Fills the folder of a queue being created (not yet under its name). */
    abstract void prepare(Path tmp, C queueConfig) throws IOException;

    /** Opens the queue in {@code dir}. */
    abstract H open(String name, Path dir, C queueConfig) throws IOException;

    /** A create failed after {@link #open} may have registered parts of the queue: forget them. */
    void forgetFailedCreate(String name) {
    }

    /**
     * Opens every queue found under the root, a few at a time ({@link ParallelOpen}); removes leftovers of
     * interrupted creates and deletes. {@link #open} must therefore be safe to run for different queues at once.
     */
    void load() throws IOException {
        List<ParallelOpen.Step> opens = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (name.startsWith(".")) {
                    Directories.deleteRecursively(d);
                } else if (Files.isDirectory(d) && Files.exists(d.resolve(QueueConfigFile.FILE_NAME))) {
                    opens.add(() -> load(name, d));
                }
            }
        }
        ParallelOpen.runAll(opens);
    }

    /** Opens and registers one queue found at open, or quarantines it if its settings cannot be read. */
    private void load(String name, Path d) throws IOException {
        C c;
        try {
            c = readConfig(d);
        } catch (IOException | RuntimeException e) {
            recovery.accept(QueueConfigFile.unreadable(d, kind, e));
            quarantined.add(name);
            return;
        }
        queues.put(name, open(name, d, c));
    }

    H create(String name, C queueConfig) {
        QueueNames.check("queue", name);
        if (queues.containsKey(name)) {
            throw new QueueExistsException(kind + " '" + name + "' already exists");
        }
        if (quarantined.contains(name)) {
            throw new QueueExistsException(QueueConfigFile.quarantinedMessage(kind, name));
        }
        try {
            Path dir = Directories.createAtomically(root, name, tmp -> prepare(tmp, queueConfig));
            H handle;
            try {
                handle = open(name, dir, queueConfig);
            } catch (IOException | RuntimeException e) {
                // so that the creation failed whole and can be tried again
                forgetFailedCreate(name);
                Directories.discard(dir, e);
                throw e;
            }
            queues.put(name, handle);
            return handle;
        } catch (IOException e) {
            throw new UncheckedIOException("creating " + kind + " '" + name + "' in " + root, e);
        }
    }

    H find(String name) {
        return queues.get(name);
    }

    H get(String name) {
        H handle = queues.get(name);
        if (handle == null) {
            throw new QueueNotFoundException(kind + " '" + name + "' does not exist");
        }
        return handle;
    }

    /** Deletes the folder of a queue already closed and unregistered. */
    void deleteFolder(String name, Path dir) {
        try {
            Directories.deleteAtomically(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("deleting " + kind + " '" + name + "' at " + dir, e);
        }
    }

    List<String> names() {
        List<String> names = new ArrayList<>(queues.keySet());
        Collections.sort(names);
        return names;
    }

    /** Whether some queue was found unreadable at open and is not open. */
    boolean anyQuarantined() {
        return !quarantined.isEmpty();
    }

    Collection<H> all() {
        return queues.values();
    }

    int size() {
        return queues.size();
    }

    void clear() {
        queues.clear();
    }
}
