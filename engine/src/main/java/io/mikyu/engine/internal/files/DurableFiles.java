package io.mikyu.engine.internal.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Small files (settings, markers) replaced whole: after a power loss either the old or the new content is there. */
public final class DurableFiles {

    private DurableFiles() {
    }

    /**
     * Writes {@code content} to a temporary sibling, fsyncs it, renames it over {@code file}, fsyncs the directory.
     * Without the first fsync a power loss can leave the renamed file empty (the rename reaches the disk before the
     * data); without the second, the rename itself can be lost.
     */
    public static void write(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannels.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.fsync(file.getParent());
    }

    /**
     * Writes a new file in a folder being filled before it is published ({@link Directories#createAtomically}):
     * the content is fsynced, the directory entry is not. The folder's one fsync before its rename covers the
     * entries of every file written into it, so filling it costs one fsync per file and one for the folder instead
     * of a rename and a directory fsync per file.
     */
    public static void writeNew(Path file, byte[] content) throws IOException {
        try (FileChannel ch = FileChannels.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
    }
}
