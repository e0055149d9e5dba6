package io.mikyu.engine.internal.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A simulated power loss under the engine's file seam ({@link FileChannels}). It keeps, beside the real files,
 * what a disk would still hold if the power went now: for each file the content as of its last fsync, and for
 * each directory the entries as of its last fsync (files created, renamed or deleted since then are not durable).
 * {@link #cut()} (or the {@code n}-th write or fsync, see {@link #cutAtEvent}) freezes that image: from then on
 * every write and fsync through the seam fails, as on a machine whose power is gone, and {@link #materialize}
 * writes the image to a new directory, on which the store is reopened.
 *
 * <p>The model is POSIX at its strictest: data not fsynced is lost whole, a new file or directory exists only
 * once its parent directory was fsynced after it appeared, a rename or delete reverts until then. Writes that
 * raced an fsync may be kept (a disk may always write back more than was asked).
 *
 * <p>Files and directories are told apart by their inode ({@code fileKey}), pinned open by this class for its
 * lifetime so that a deleted file's inode number is not reused by a new file while the image may still name it.
 */
public final class PowerLossFileSystem implements AutoCloseable {

    /** One inode: a file's durable content (a shadow file) or a directory's durable entries. */
    private static final class Node {
        final boolean directory;
        final Path shadow;
        long durableSize;
        Map<String, Node> durableEntries = new LinkedHashMap<>();
        /** File ranges written since the last fsync: start → end. */
        final TreeMap<Long, Long> dirty = new TreeMap<>();
        /** Held open: keeps the inode number from being reused, and reads the file whatever it is called now. */
        FileChannel pin;

        Node(boolean directory, Path shadow) {
            this.directory = directory;
            this.shadow = shadow;
        }
    }

    private final Path root;
    private final Path shadows;
    private final Object lock = new Object();
    private final Map<Object, Node> byKey = new HashMap<>();
    private final List<FileChannel> pins = new ArrayList<>();
    private final Node rootNode;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong forces = new AtomicLong();
    private volatile long cutAt = Long.MAX_VALUE;
    private volatile boolean lost;
    private int shadowCount;

    private PowerLossFileSystem(Path root, Path shadows) throws IOException {
        this.root = root.toAbsolutePath().normalize();
        this.shadows = shadows;
        Files.createDirectories(shadows);
        this.rootNode = baseline(this.root);
    }

    /**
     * Starts watching the files under {@code root}, whose present content counts as durable; {@code shadows} (outside
     * {@code root}) holds the durable copies. Until {@link #close()} every channel the engine opens under
     * {@code root} is watched.
     */
    public static PowerLossFileSystem install(Path root, Path shadows) throws IOException {
        PowerLossFileSystem fs = new PowerLossFileSystem(root, shadows);
        FileChannels.wrapper = (file, channel) -> file.toAbsolutePath().normalize().startsWith(fs.root)
                ? fs.watch(file, channel) : channel;
        return fs;
    }

    /** The power goes before the {@code n}-th write or fsync (counted from 1) through the seam from now on. */
    public void cutAtEvent(long n) {
        cutAt = events.get() + n;
    }

    /** The power goes now. */
    public void cut() {
        synchronized (lock) {
            lost = true;
        }
    }

    public boolean isCut() {
        return lost;
    }

    /** Writes and fsyncs seen through the seam so far. */
    public long events() {
        return events.get();
    }

    /** fsyncs that completed (files and directories). */
    public long forces() {
        return forces.get();
    }

    /** Writes what the disk holds after the power loss into {@code target} (a new directory). */
    public void materialize(Path target) throws IOException {
        materialize(target, file -> false);
    }

    /**
     * As {@link #materialize(Path)}, on a disk that had written back everything written to some files before the
     * power went, fsynced or not (a disk may always write more than was asked): files whose path relative to the
     * root matches {@code writtenBack} keep every write, the others only what was fsynced. Directory entries stay
     * as fsynced. Tells whether one file's unsynced data can outlive another's durable data that it depends on.
     */
    public void materialize(Path target, java.util.function.Predicate<Path> writtenBack) throws IOException {
        materialize(target, writtenBack, file -> 0);
    }

    /**
     * As {@link #materialize(Path)}, on a disk that had written back part of what was not fsynced: of each file's
     * unsynced bytes, in file order, the share {@code keptOfUnsynced} gives it (0 to 1) is kept and the rest lost,
     * so an appended tail is torn at an arbitrary byte. Directory entries stay as fsynced.
     */
    public void materializeTorn(Path target, java.util.function.ToDoubleFunction<Path> keptOfUnsynced)
            throws IOException {
        materialize(target, file -> false, keptOfUnsynced);
    }

    private void materialize(Path target, java.util.function.Predicate<Path> writtenBack,
                             java.util.function.ToDoubleFunction<Path> keptOfUnsynced) throws IOException {
        synchronized (lock) {
            if (!lost) {
                throw new IllegalStateException("the power is still on");
            }
            Files.createDirectories(target);
            materialize(rootNode, target, Path.of(""), writtenBack, keptOfUnsynced);
        }
    }

    /** Writes the first {@code share} of {@code n}'s unsynced bytes (file order) over the durable copy {@code p}. */
    private static void keepUnsynced(Node n, Path p, double share) throws IOException {
        long size = n.pin.size();
        long unsynced = 0;
        for (Map.Entry<Long, Long> e : n.dirty.entrySet()) {
            unsynced += Math.max(0, Math.min(e.getValue(), size) - e.getKey());
        }
        long keep = (long) (unsynced * Math.min(1, Math.max(0, share)));
        try (FileChannel out = FileChannel.open(p, StandardOpenOption.WRITE)) {
            for (Map.Entry<Long, Long> e : n.dirty.entrySet()) {
                long start = e.getKey();
                long end = Math.min(Math.min(e.getValue(), size), start + keep);
                if (end > start) {
                    ByteBuffer buf = ByteBuffer.allocate((int) (end - start));
                    n.pin.read(buf, start);
                    buf.flip();
                    while (buf.hasRemaining()) {
                        out.write(buf, start + buf.position());
                    }
                    keep -= end - start;
                }
            }
        }
    }

    private void materialize(Node dir, Path target, Path relative, java.util.function.Predicate<Path> writtenBack,
                             java.util.function.ToDoubleFunction<Path> keptOfUnsynced) throws IOException {
        for (Map.Entry<String, Node> e : dir.durableEntries.entrySet()) {
            Path p = target.resolve(e.getKey());
            Node n = e.getValue();
            if (n.directory) {
                Files.createDirectory(p);
                materialize(n, p, relative.resolve(e.getKey()), writtenBack, keptOfUnsynced);
            } else if (writtenBack.test(relative.resolve(e.getKey()))) {
                try (FileChannel out = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    long size = n.pin.size();
                    long done = 0;
                    while (done < size) {
                        long m = n.pin.transferTo(done, size - done, out);
                        if (m <= 0) {
                            break;
                        }
                        done += m;
                    }
                }
            } else {
                try (FileChannel in = FileChannel.open(n.shadow, StandardOpenOption.READ);
                     FileChannel out = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    long done = 0;
                    while (done < n.durableSize) {
                        long m = in.transferTo(done, n.durableSize - done, out);
                        if (m <= 0) {
                            break; // the shadow is shorter: the rest is a hole, zeros
                        }
                        done += m;
                    }
                    if (done < n.durableSize) {
                        out.write(ByteBuffer.allocate(1), n.durableSize - 1);
                    }
                }
                double share = keptOfUnsynced.applyAsDouble(relative.resolve(e.getKey()));
                if (share > 0 && !n.dirty.isEmpty()) {
                    keepUnsynced(n, p, share);
                }
            }
        }
    }

    @Override
    public void close() {
        FileChannels.wrapper = null;
        synchronized (lock) {
            for (FileChannel pin : pins) {
                try {
                    pin.close();
                } catch (IOException ignored) {
                    // nothing to do
                }
            }
            pins.clear();
        }
    }

    // ------------------------------------------------------------------------------------------------- the model

    private Node baseline(Path dir) throws IOException {
        Node node = node(dir, true);
        try (Stream<Path> children = Files.list(dir)) {
            for (Path c : (Iterable<Path>) children::iterator) {
                if (Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS)) {
                    node.durableEntries.put(c.getFileName().toString(), baseline(c));
                } else {
                    Node f = node(c, false);
                    Files.copy(c, f.shadow, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    f.durableSize = Files.size(c);
                    node.durableEntries.put(c.getFileName().toString(), f);
                }
            }
        }
        return node;
    }

    /** The node of the inode {@code path} names now, made (with nothing durable) and pinned if it is new. */
    private Node node(Path path, boolean directory) throws IOException {
        Object key = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        Node n = byKey.get(key);
        if (n == null) {
            n = new Node(directory, directory ? null : shadows.resolve("inode-" + shadowCount++));
            if (!directory) {
                Files.createFile(n.shadow);
            }
            n.pin = FileChannel.open(path, StandardOpenOption.READ);
            pins.add(n.pin);
            byKey.put(key, n);
        }
        return n;
    }

    private FileChannel watch(Path file, FileChannel channel) {
        try {
            synchronized (lock) {
                if (lost) {
                    channel.close();
                    throw new UncheckedIOException(powerLost(file));
                }
                boolean directory = Files.isDirectory(file);
                Node node = node(file, directory);
                return new Channel(file, channel, node);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static IOException powerLost(Path file) {
        return new IOException("Input/output error: power lost (simulated) at " + file);
    }

    /** Counts a write or fsync; at the chosen event the power goes. */
    private void event(Path file) throws IOException {
        long n = events.incrementAndGet();
        synchronized (lock) {
            if (n >= cutAt) {
                lost = true;
            }
            if (lost) {
                throw powerLost(file);
            }
        }
    }

    private void markDirty(Node node, long from, long length) {
        if (length <= 0) {
            return;
        }
        synchronized (lock) {
            long start = from;
            long end = from + length;
            Map.Entry<Long, Long> before = node.dirty.floorEntry(start);
            if (before != null && before.getValue() >= start) {
                start = before.getKey();
                end = Math.max(end, before.getValue());
            }
            for (Map.Entry<Long, Long> e = node.dirty.ceilingEntry(start); e != null && e.getKey() <= end;
                 e = node.dirty.ceilingEntry(start)) {
                end = Math.max(end, e.getValue());
                node.dirty.remove(e.getKey());
            }
            node.dirty.put(start, end);
        }
    }

    /** After a successful fsync of a file: its content (as it is now) is durable. */
    private void fileForced(Node node) throws IOException {
        FileChannel channel = node.pin;
        long size = channel.size();
        try (FileChannel shadow = FileChannel.open(node.shadow, StandardOpenOption.WRITE)) {
            for (Map.Entry<Long, Long> e : node.dirty.entrySet()) {
                long start = e.getKey();
                long end = Math.min(e.getValue(), size);
                ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
                for (long p = start; p < end; ) {
                    buf.clear().limit((int) Math.min(buf.capacity(), end - p));
                    int r = channel.read(buf, p);
                    if (r <= 0) {
                        break;
                    }
                    buf.flip();
                    while (buf.hasRemaining()) {
                        shadow.write(buf, p + buf.position());
                    }
                    p += r;
                }
            }
            node.dirty.clear();
            if (shadow.size() > size) {
                shadow.truncate(size);
            }
        }
        node.durableSize = size;
    }

    /** After a successful fsync of a directory: its entries, as they are now, are durable. */
    private void directoryForced(Node node, Path dir) throws IOException {
        Map<String, Node> entries = new LinkedHashMap<>();
        try (Stream<Path> children = Files.list(dir)) {
            for (Path c : (Iterable<Path>) children::iterator) {
                try {
                    entries.put(c.getFileName().toString(), node(c, Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS)));
                } catch (java.nio.file.NoSuchFileException gone) {
                    // deleted while listed: the fsync may or may not have caught it; take it as gone
                }
            }
        }
        node.durableEntries = entries;
    }

    /** A watched channel: writes mark ranges dirty, fsyncs make them durable, after the power loss all fail. */
    private final class Channel extends FileChannel {
        private final Path file;
        private final FileChannel delegate;
        private final Node node;

        Channel(Path file, FileChannel delegate, Node node) {
            this.file = file;
            this.delegate = delegate;
            this.node = node;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            event(file);
            synchronized (lock) {
                if (lost) {
                    throw powerLost(file);
                }
                delegate.force(metaData);
                if (node.directory) {
                    directoryForced(node, file);
                } else {
                    fileForced(node);
                }
                forces.incrementAndGet();
            }
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            event(file);
            markDirty(node, delegate.position(), src.remaining());
            return delegate.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            event(file);
            long bytes = 0;
            for (int i = offset; i < offset + length; i++) {
                bytes += srcs[i].remaining();
            }
            markDirty(node, delegate.position(), bytes);
            return delegate.write(srcs, offset, length);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            event(file);
            markDirty(node, position, src.remaining());
            return delegate.write(src, position);
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            event(file);
            delegate.truncate(size);
            return this;
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            event(file);
            markDirty(node, position, count);
            return delegate.transferFrom(src, position, count);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            if (mode != MapMode.READ_ONLY) {
                throw new UnsupportedOperationException("writable mappings are not modelled");
            }
            return delegate.map(mode, position, size);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return delegate.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return delegate.read(dsts, offset, length);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return delegate.read(dst, position);
        }

        @Override
        public long position() throws IOException {
            return delegate.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            delegate.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return delegate.size();
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return delegate.transferTo(position, count, target);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return delegate.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return delegate.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            delegate.close();
        }
    }
}
