package io.mikyu.engine.internal.store;

import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.internal.files.Directories;
import io.mikyu.engine.internal.files.GroupedFsync;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The store's queues of one kind, by name, each in its own folder under {@code root} with its settings in
 * {@link QueueConfigFile}: finding them at open, opening each on its first use, creating one atomically, finding
 * one. What a queue is made of and how it opens and closes is the subclass's. The store serializes create and
 * delete of one name, not of different names: creates of different queues run at once and share the fsync of
 * {@code root} that publishes their folders ({@link GroupedFsync}).
 *
 * <p>A queue found at open is only named ({@link #unopened}): its settings, index, segments and ledger are read,
 * and its recovery done, when something first asks for it ({@link #find}), so that opening a store of many queues
 * costs one listing of its folder. Two threads asking at once share one open ({@link #opening}).
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
    /** The fsync of {@link #root} that makes a created queue's folder durable, shared by creates running at once. */
    private final GroupedFsync rootFsync;
    /** Queues found with an unreadable queue.conf: not opened, their names kept from reuse. */
    private final Set<String> quarantined = ConcurrentHashMap.newKeySet();
    /** Queues found at open and not opened yet, by name: their folders. */
    private final ConcurrentHashMap<String, Path> unopened = new ConcurrentHashMap<>();
    /** Opens under way, by name; guarded by {@code this} together with the moves out of {@link #unopened}. */
    private final Map<String, CompletableFuture<H>> opening = new HashMap<>();
    /** Set at store close: no queue opens any more. Guarded by {@code this}. */
    private boolean closing;
    /** Queues opened after the store's open returned (first uses, the background opener). */
    private final AtomicInteger openedLater = new AtomicInteger();

    QueueRegistry(Path root, Consumer<RecoveryReport.Event> recovery, String kind) {
        this.root = root;
        this.recovery = recovery;
        this.kind = kind;
        this.rootFsync = new GroupedFsync(root);
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
     * Names the queues found under the root without reading them; removes leftovers of interrupted creates and
     * deletes. {@link #open} must be safe to run for different queues at once, and alongside the writer.
     */
    void load() throws IOException {
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (name.startsWith(".")) {
                    Directories.deleteRecursively(d);
                } else if (Files.isDirectory(d) && Files.exists(d.resolve(QueueConfigFile.FILE_NAME))) {
                    unopened.put(name, d);
                }
            }
        }
    }

    /**
     * The open queue of that name, opening it if it was found at open and not opened yet; null if there is none
     * (or its settings turn out unreadable: it is then set aside, as at open).
     */
    H find(String name) {
        H handle = queues.get(name);
        if (handle != null || !unopened.containsKey(name)) {
            return handle; // registered before it leaves unopened: a lookup never misses a queue in between
        }
        CompletableFuture<H> shared;
        Path dir;
        synchronized (this) {
            handle = queues.get(name);
            if (handle != null) {
                return handle;
            }
            if (closing) {
                throw new StoreClosedException("the store is closing; " + kind + " '" + name + "' stays closed");
            }
            shared = opening.get(name);
            dir = shared == null ? unopened.get(name) : null;
            if (shared == null && dir == null) {
                return queues.get(name);
            }
            if (shared == null) {
                opening.put(name, shared = new CompletableFuture<>());
            }
        }
        if (dir != null) {
            openFound(name, dir, shared);
        }
        try {
            return shared.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new UncheckedIOException("opening " + kind + " '" + name + "' in " + root,
                    cause instanceof IOException io ? io : new IOException(cause));
        }
    }

    /** Opens a queue found at open and completes {@code done} with it; a failure leaves it to be tried again. */
    private void openFound(String name, Path dir, CompletableFuture<H> done) {
        H handle = null;
        try {
            C c = null;
            try {
                c = readConfig(dir);
            } catch (IOException | RuntimeException e) {
                recovery.accept(QueueConfigFile.unreadable(dir, kind, e));
                quarantined.add(name);
            }
            if (c != null) {
                handle = open(name, dir, c);
            }
        } catch (Throwable e) {
            synchronized (this) {
                opening.remove(name);
            }
            done.completeExceptionally(e);
            return;
        }
        synchronized (this) {
            if (handle != null) {
                queues.put(name, handle);
                openedLater.incrementAndGet();
            }
            unopened.remove(name);
            opening.remove(name);
        }
        done.complete(handle);
    }

    H create(String name, C queueConfig) {
        QueueNames.check("queue", name);
        if (queues.containsKey(name) || unopened.containsKey(name)) {
            throw new QueueExistsException(kind + " '" + name + "' already exists");
        }
        if (quarantined.contains(name)) {
            throw new QueueExistsException(QueueConfigFile.quarantinedMessage(kind, name));
        }
        try {
            Path dir = Directories.createAtomically(root, name, tmp -> prepare(tmp, queueConfig), rootFsync::fsync);
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

    H get(String name) {
        H handle = find(name);
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

    /** Every queue's name, opened or not, sorted. */
    List<String> names() {
        Set<String> names = new TreeSet<>();
        // the unopened first: a queue that opens meanwhile is registered before it leaves them, so it is seen
        for (String n : unopened.keySet()) {
            names.addAll(namesOfUnopened(n));
        }
        names.addAll(queues.keySet());
        return new ArrayList<>(names);
    }

    /** The names a queue not opened yet registers once open (a task queue's include its dead-letter queue's). */
    List<String> namesOfUnopened(String name) {
        return List.of(name);
    }

    /** Whether some queue was found unreadable at open and is not open. */
    boolean anyQuarantined() {
        return !quarantined.isEmpty();
    }

    /** Whether some queue found at open has not been opened yet. */
    boolean anyUnopened() {
        return !unopened.isEmpty();
    }

    /** The queues found at open and not opened yet, with their folders (a snapshot). */
    Map<String, Path> unopened() {
        return Map.copyOf(unopened);
    }

    /** How many queues opened after the store's open returned. */
    int openedLater() {
        return openedLater.get();
    }

    /** Opens every queue not opened yet, a few at a time ({@link ParallelOpen}); throws the first failure. */
    void openAll() throws IOException {
        List<ParallelOpen.Step> steps = new ArrayList<>();
        for (String name : unopened().keySet()) {
            steps.add(() -> {
                try {
                    find(name);
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
            });
        }
        ParallelOpen.runAll(steps);
    }

    /** At store close: no queue opens any more; waits for the opens under way, whose queues close with the rest. */
    void stopOpening() {
        List<CompletableFuture<H>> running;
        synchronized (this) {
            closing = true;
            running = new ArrayList<>(opening.values());
        }
        for (CompletableFuture<H> f : running) {
            try {
                f.join();
            } catch (RuntimeException e) {
                // that open failed: nothing of it to close
            }
        }
    }

    /** The open queues. */
    Collection<H> all() {
        return queues.values();
    }

    /** How many queues are open. */
    int size() {
        return queues.size();
    }

    void clear() {
        queues.clear();
        unopened.clear();
    }
}
