package io.mikyu.engine.internal.store;

import io.mikyu.engine.MikyuException;
import io.mikyu.engine.internal.files.Directories;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * The upgrade from store format 1 to 2: each log queue's shared groups move from its folder {@code shared} to
 * {@code shared-groups} ({@link SharedGroups#DIRECTORY}), their files untouched.
 *
 * <p>A queue's folder is renamed in one atomic rename, and the queue's folder fsynced, before the next queue's, so
 * a crash leaves every queue with one name or the other and the next open renames what is left. A queue that has
 * both (a crash while merging them, or folders put together by hand) has the groups of the old one moved over one
 * by one; a group found under both names is refused rather than guessed at.
 */
final class SharedGroupsRename {

    /** Where store format 1 kept a log queue's shared groups. */
    static final String FORMAT_1_DIRECTORY = "shared";

    private SharedGroupsRename() {
    }

    /** Renames the shared groups' folder of every log queue under {@code logRoot}. */
    static void run(Path logRoot) throws IOException {
        if (!Files.isDirectory(logRoot)) {
            return;
        }
        try (Stream<Path> queues = Files.list(logRoot)) {
            for (Path queue : (Iterable<Path>) queues::iterator) {
                if (!queue.getFileName().toString().startsWith(".") && Files.isDirectory(queue)) {
                    renameIn(queue);
                }
            }
        }
    }

    private static void renameIn(Path queue) throws IOException {
        Path old = queue.resolve(FORMAT_1_DIRECTORY);
        if (!Files.isDirectory(old)) {
            return;
        }
        Path current = queue.resolve(SharedGroups.DIRECTORY);
        if (Files.exists(current)) {
            merge(old, current);
            Files.delete(old);
        } else {
            Files.move(old, current, StandardCopyOption.ATOMIC_MOVE);
        }
        Directories.fsync(queue);
    }

    private static void merge(Path old, Path current) throws IOException {
        try (Stream<Path> groups = Files.list(old)) {
            for (Path group : (Iterable<Path>) groups::iterator) {
                String name = group.getFileName().toString();
                if (name.startsWith(".")) {
                    Directories.deleteRecursively(group); // a creation or deletion cut short: SharedGroups drops them
                    continue;
                }
                Path target = current.resolve(name);
                if (Files.exists(target)) {
                    throw new MikyuException("shared group '" + name + "' is both in " + group + " and in " + target
                            + ": delete the one not to keep and open the store again");
                }
                Files.move(group, target, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        Directories.fsync(current); // the groups are in their new folder before the old one goes
        Directories.fsync(old);
    }
}
