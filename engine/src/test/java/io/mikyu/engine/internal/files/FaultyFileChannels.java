package io.mikyu.engine.internal.files;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Fault injection at the engine's file seam ({@link FileChannels}): channels of files under one directory are
 * wrapped, every fsync of them is recorded, and chosen fsyncs fail as a disk would make them fail. Writes can fail
 * too: a disk that fills up after a number of bytes (ENOSPC: the write that crosses the limit writes what fits and
 * the next one fails, until {@link #heal()}), or the {@code k}-th write or fsync failing once (EIO). Everything
 * else goes to the real file. And fsyncs can be held in progress, as on a slow disk.
 */
public final class FaultyFileChannels implements AutoCloseable {

    private final Path root;
    private final List<Path> forced = new CopyOnWriteArrayList<>();
    private final AtomicInteger failedForces = new AtomicInteger();
    private volatile Predicate<Path> failing = p -> false;
    private volatile Supplier<? extends Throwable> failure = () -> new IOException("Input/output error (injected)");
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong forces = new AtomicLong();
    private final AtomicInteger failedWrites = new AtomicInteger();
    /** Bytes the disk still takes; negative: no limit. */
    private final AtomicLong room = new AtomicLong(-1);
    private volatile long failWriteAt = -1;
    private volatile Predicate<Path> full = p -> false;
    private volatile long failForceAt = -1;
    private volatile Predicate<Path> held = p -> false;
    private final AtomicInteger heldForces = new AtomicInteger();
    private volatile CountDownLatch release = new CountDownLatch(0);

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
        room.set(-1);
        full = p -> false;
        failWriteAt = -1;
        failForceAt = -1;
    }

    /**
     * From now on, fsyncs of files matching {@code which} block until {@link #releaseForces()}: an fsync that is
     * still in progress, as a slow disk makes it. {@link #heldForces()} counts those that started.
     */
    public void holdForces(Predicate<Path> which) {
        release = new CountDownLatch(1);
        held = which;
    }

    /** How many fsyncs {@link #holdForces} has held so far. */
    public int heldForces() {
        return heldForces.get();
    }

    /** Lets every held fsync go on, and holds no more. */
    public void releaseForces() {
        held = p -> false;
        release.countDown();
    }

    /** The disk takes {@code bytes} more, then every write fails with ENOSPC until {@link #heal()}. */
    public void diskFullAfter(long bytes) {
        room.set(Math.max(0, bytes));
    }

    /** From now on, writes to files matching {@code which} fail with ENOSPC, as on a disk just full. */
    public void failWritesWithNoSpace(Predicate<Path> which) {
        full = which;
    }

    /** The {@code k}-th write from now (counted from 1) fails with EIO, once. */
    public void failWrite(long k) {
        failWriteAt = writes.get() + k;
    }

    /** The {@code k}-th fsync from now (counted from 1) fails with EIO, once. */
    public void failForce(long k) {
        failForceAt = forces.get() + k;
    }

    /** Write calls so far. */
    public long writes() {
        return writes.get();
    }

    /** Bytes written so far. */
    public long bytesWritten() {
        return bytesWritten.get();
    }

    /** fsync calls so far. */
    public long forceCalls() {
        return forces.get();
    }

    /** Writes refused (ENOSPC or EIO) so far. */
    public int failedWrites() {
        return failedWrites.get();
    }

    /**
     * Before a write of {@code wanted} bytes: how many may be written (fewer on a disk about to be full), or an
     * exception when none may.
     */
    private long admit(Path file, long wanted) throws IOException {
        long n = writes.incrementAndGet();
        if (full.test(file)) {
            failedWrites.incrementAndGet();
            throw new IOException("No space left on device (injected)");
        }
        if (n == failWriteAt) {
            failedWrites.incrementAndGet();
            throw new IOException("Input/output error (injected)");
        }
        while (true) {
            long left = room.get();
            if (left < 0) {
                bytesWritten.addAndGet(wanted);
                return wanted;
            }
            if (left == 0 && wanted > 0) {
                failedWrites.incrementAndGet();
                throw new IOException("No space left on device (injected)");
            }
            long granted = Math.min(left, wanted);
            if (room.compareAndSet(left, left - granted)) {
                bytesWritten.addAndGet(granted);
                return granted;
            }
        }
    }

    public int failedForces() {
        return failedForces.get();
    }

    /**
     * Every file fsynced (successfully) so far, in order: a copy, since the engine's background threads go on
     * fsyncing while a test looks.
     */
    public List<Path> forced() {
        return List.copyOf(forced);
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
            if (forces.incrementAndGet() == failForceAt) {
                failedForces.incrementAndGet();
                throw new IOException("Input/output error (injected)");
            }
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
            if (held.test(file)) {
                heldForces.incrementAndGet();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("held fsync interrupted");
                }
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
            long granted = admit(file, src.remaining());
            if (granted == src.remaining()) {
                return delegate.write(src);
            }
            ByteBuffer part = src.slice().limit((int) granted);
            int n = delegate.write(part);
            src.position(src.position() + n);
            return n;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long wanted = 0;
            for (int i = offset; i < offset + length; i++) {
                wanted += srcs[i].remaining();
            }
            long granted = admit(file, wanted);
            if (granted == wanted) {
                return delegate.write(srcs, offset, length);
            }
            long done = 0;
            for (int i = offset; i < offset + length && done < granted; i++) {
                ByteBuffer part = srcs[i].slice().limit((int) Math.min(srcs[i].remaining(), granted - done));
                int n = delegate.write(part);
                srcs[i].position(srcs[i].position() + n);
                done += n;
            }
            return done;
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
            long granted = admit(file, src.remaining());
            if (granted == src.remaining()) {
                return delegate.write(src, position);
            }
            ByteBuffer part = src.slice().limit((int) granted);
            int n = delegate.write(part, position);
            src.position(src.position() + n);
            return n;
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
