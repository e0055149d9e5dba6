package io.mikyu.engine.internal.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/** Directory operations that durability needs and the JDK spreads thin. */
public final class Directories {

    private Directories() {
    }

    /**
     * fsyncs a directory so a rename or create in it survives a crash (a no-op where the OS cannot open
     * directories). A failing fsync is not ignored: the entries it was to make durable may be lost.
     */
    public static void fsync(Path dir) {
        FileChannel ch;
        try {
            ch = FileChannels.open(dir, StandardOpenOption.READ);
        } catch (IOException ignored) {
            return; // some platforms cannot open directories; rename durability then rests on the filesystem
        }
        try (ch) {
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("fsync of directory " + dir + " failed", e);
        }
    }

    /**
     * Creates {@code dir} and whatever parents are missing, fsyncing the parent of each one made: a directory made
     * and never fsynced into its parent can vanish in a power loss with everything later fsynced inside it.
     */
    public static void createDurably(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            createDurably(parent);
        }
        try {
            Files.createDirectory(dir);
        } catch (java.nio.file.FileAlreadyExistsException raced) {
            if (!Files.isDirectory(dir)) {
                throw raced;
            }
            return;
        }
        if (parent != null) {
            fsync(parent);
        }
    }

    /** Fills a new directory. */
    @FunctionalInterface
    public interface Initializer {
        void fill(Path dir) throws IOException;
    }

    /**
     * Creates {@code root/name} whole or not at all: filled under a hidden temporary name, then renamed into place
     * (and the rename made durable). Hidden leftovers of a crash are deleted on the next open. If the rename
     * cannot be made durable (its fsync fails), the folder is taken away again, so that the creation failed
     * whole and can be tried again.
     */
    public static Path createAtomically(Path root, String name, Initializer init) throws IOException {
        return createAtomically(root, name, init, () -> fsync(root));
    }

    /**
     * As {@link #createAtomically(Path, String, Initializer)}, with the rename made durable by {@code rootFsync}
     * (an fsync of {@code root}, shared by the creates that run at once: {@link GroupedFsync}).
     */
    public static Path createAtomically(Path root, String name, Initializer init, Runnable rootFsync)
            throws IOException {
        Path tmp = root.resolve("." + name + ".creating");
        Path dir = root.resolve(name);
        deleteRecursively(tmp);
        Files.createDirectories(tmp);
        init.fill(tmp);
        fsync(tmp); // its entries (files written by init are fsynced by it) before the rename publishes them
        Files.move(tmp, dir, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        try {
            rootFsync.run();
        } catch (RuntimeException e) {
            discard(dir, e);
            throw e;
        }
        return dir;
    }

    /** Deletes a directory so that a crash midway leaves nothing that looks alive: rename it hidden, then delete. */
    public static void deleteAtomically(Path dir) throws IOException {
        Path doomed = dir.resolveSibling("." + dir.getFileName() + ".deleting-" + System.nanoTime());
        Files.move(dir, doomed, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        fsync(dir.getParent());
        deleteRecursively(doomed);
    }

    /**
     * Takes away a folder just made whose creation then failed with {@code failure}, so that the creation can be
     * tried again; if that fails too, its error is added to {@code failure}.
     */
    public static void discard(Path dir, Throwable failure) {
        try {
            deleteAtomically(dir);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    public static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
