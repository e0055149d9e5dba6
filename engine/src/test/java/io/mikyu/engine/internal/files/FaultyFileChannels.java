package io.mikyu.engine.internal.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Fault injection at the engine's file seam ({@link FileChannels}): channels of files under one directory are
 * wrapped, every fsync of them is recorded, and chosen fsyncs fail as a disk would make them fail. Everything
 * else goes to the real file.
 */
public final class FaultyFileChannels implements AutoCloseable {

    private final Path root;
    private final List<Path> forced = new CopyOnWriteArrayList<>();
    private final AtomicInteger failedForces = new AtomicInteger();
    private volatile Predicate<Path> failing = p -> false;
    private volatile Supplier<? extends Throwable> failure = () -> new IOException("Input/output error (injected)");

    private FaultyFileChannels(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** Wraps the channels of files under {@code root} until {@link #close()}. */
    public static FaultyFileChannels install(Path root) {
        FaultyFileChannels faults = new FaultyFileChannels(root);
        FileChannels.wrapper = (file, channel) -> file.toAbsolutePath().normalize().startsWith(faults.root)
                ? faults.new Channel(file, channel) : channel;
        return faults;
    }

    /** From now on, fsyncs of files matching {@code which} fail with an {@link IOException} (EIO). */
    public void failForces(Predicate<Path> which) {
        failForces(which, () -> new IOException("Input/output error (injected)"));
    }

    /** From now on, fsyncs of files matching {@code which} throw what {@code thrown} makes. */
    public void failForces(Predicate<Path> which, Supplier<? extends Throwable> thrown) {
        this.failure = thrown;
        this.failing = which;
    }

    /** fsyncs succeed again (the disk "recovered", as Linux reports an error once and then succeeds). */
    public void heal() {
        failing = p -> false;
    }

    public int failedForces() {
        return failedForces.get();
    }

    /** Every file fsynced (successfully) so far, in order. */
    public List<Path> forced() {
        return forced;
    }

    @Override
    public void close() {
        FileChannels.wrapper = null;
    }

    private final class Channel extends FileChannel {
        private final Path file;
        private final FileChannel delegate;

        Channel(Path file, FileChannel delegate) {
            this.file = file;
            this.delegate = delegate;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            if (failing.test(file)) {
                failedForces.incrementAndGet();
                Throwable t = failure.get();
                if (t instanceof IOException io) {
                    throw io;
                }
                if (t instanceof Error e) {
                    throw e;
                }
                throw (RuntimeException) t;
            }
            delegate.force(metaData);
            forced.add(file);
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
        public int write(ByteBuffer src) throws IOException {
            return delegate.write(src);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            return delegate.write(srcs, offset, length);
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
        public FileChannel truncate(long size) throws IOException {
            delegate.truncate(size);
            return this;
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return delegate.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return delegate.transferFrom(src, position, count);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return delegate.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            return delegate.write(src, position);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return delegate.map(mode, position, size);
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
