package io.mikyu.engine.support;

import io.mikyu.engine.internal.format.BatchDescriptor;
import io.mikyu.engine.internal.format.SegmentDescriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Test-side access to a store's files, following the documented on-disk layouts
 * ({@code SegmentDescriptor}, {@code BatchDescriptor}), so tests can damage exactly the bytes they mean to.
 */
public final class StoreFiles {

    private StoreFiles() {
    }

    /** One batch found in a segment file. */
    public record Batch(long position, long baseOffset, long lastOffset, int totalSize) {
        public long end() {
            return position + totalSize;
        }
    }

    public static Path logDir(Path dataDir, String queue) {
        return dataDir.resolve("log").resolve(queue);
    }

    /** The queue's segment files, oldest first. */
    public static List<Path> segments(Path queueDir) {
        return listSorted(queueDir, SegmentDescriptor.SUFFIX);
    }

    public static List<Path> indexes(Path queueDir) {
        return listSorted(queueDir, SegmentDescriptor.INDEX_SUFFIX);
    }

    public static Path indexOf(Path segment) {
        return segment.resolveSibling(segment.getFileName().toString().replace(SegmentDescriptor.SUFFIX,
                SegmentDescriptor.INDEX_SUFFIX));
    }

    private static List<Path> listSorted(Path dir, String suffix) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Files in the queue's {@code quarantine/} folder (empty if there is none). */
    public static List<Path> quarantined(Path queueDir) {
        Path q = queueDir.resolve("quarantine");
        if (!Files.isDirectory(q)) {
            return List.of();
        }
        return listSorted(q, "");
    }

    /** The batches of a segment, walking length fields until the end, zeros, or something implausible. */
    public static List<Batch> batches(Path segment) {
        try {
            byte[] bytes = Files.readAllBytes(segment);
            ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            List<Batch> out = new ArrayList<>();
            int pos = SegmentDescriptor.HEADER_LENGTH;
            while (pos + BatchDescriptor.HEADER_LENGTH <= bytes.length) {
                int length = buf.getInt(pos + BatchDescriptor.LENGTH_OFFSET);
                if (length <= 0) {
                    break;
                }
                int total = BatchDescriptor.totalSize(length);
                if (pos + total > bytes.length) {
                    break;
                }
                long base = buf.getLong(pos + BatchDescriptor.BASE_OFFSET_OFFSET);
                int lastDelta = buf.getInt(pos + BatchDescriptor.LAST_OFFSET_DELTA_OFFSET);
                out.add(new Batch(pos, base, base + lastDelta, total));
                pos += total;
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Inverts every bit of the byte at {@code position}. */
    public static void flipByte(Path file, long position) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, position);
            b.flip();
            byte v = b.get(0);
            ch.write(ByteBuffer.wrap(new byte[] {(byte) ~v}), position);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void writeAt(Path file, long position, byte[] bytes) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), position);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Cuts the last batch of a queue's first segment in half, as a crash in its write would; returns the segment. */
    public static Path tearTail(Path queueDir) {
        Path seg = segments(queueDir).get(0);
        List<Batch> all = batches(seg);
        Batch last = all.get(all.size() - 1);
        truncate(seg, last.position() + last.totalSize() / 2);
        return seg;
    }

    public static void truncate(Path file, long size) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void append(Path file, byte[] bytes) {
        try {
            Files.write(file, bytes, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Copies a data directory file by file: used on a store that is open (after {@code flush()}) to get what a
     * crash would leave behind, without the clean-close index files of the active segment.
     */
    public static void copyDirectory(Path from, Path to) {
        try {
            Files.walkFileTree(from, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.REPLACE_EXISTING);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
