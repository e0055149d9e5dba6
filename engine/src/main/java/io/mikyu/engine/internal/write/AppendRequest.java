package io.mikyu.engine.internal.write;

import io.mikyu.engine.MikyuException;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;

/**
 * One append call on its way through the writer: an encoded batch for one queue, and the handshake by which the
 * producer waits for it. The producer spins briefly, then parks; the writer fills in the result and unparks it.
 * No futures or locks: one object per append call is the only allocation of the hand-off.
 */
public final class AppendRequest {

    private static final int PENDING = 0;
    private static final int DONE = 1;
    private static final int FAILED = 2;
    /** Brief spinning catches the common fast completion without a park/unpark round trip. */
    private static final int SPINS = 64;

    final WriteTarget target;
    final byte[] batch;
    final boolean sync;
    /** A direct copy of {@code batch} the writer can hand to the kernel as is, or {@code null}. */
    private final ByteBuffer staged;
    private final Thread waiter;
    /** For an asynchronous request: told the outcome on the writer thread instead of a waiter being unparked. */
    private final Callback callback;

    /** The outcome of an asynchronous request, on the writer thread: must only hand the work on, never block. */
    public interface Callback {
        void completed(long baseOffset);

        void failed(RuntimeException cause);
    }

    private volatile int state = PENDING;
    private long baseOffset;
    private RuntimeException failure;
    /**
     * Requests the writer writes only once this one is written (and fsynced, if it asked), in the same cycle:
     * see {@link GroupCommitWriter#appendThen}. Set before submission, read on the writer thread.
     */
    java.util.List<AppendRequest> followers;
    /**
     * Set on submission when this synchronous request arrived while the writer was fsyncing: it waits for that fsync
     * to end before its own cycle begins (counted by {@link WriterMetrics#countSyncBehindFsync}).
     */
    boolean behindFsync;
    /** Told the base offset on the writer thread before anyone else hears of the completion; see {@link #onWritten}. */
    private java.util.function.LongConsumer written;

    public AppendRequest(WriteTarget target, byte[] batch, boolean sync) {
        this(target, batch, sync, null);
    }

    /**
     * A request whose bytes the producer already copied into {@code staged}, a direct buffer it owns and will not
     * touch until the request completes: the writer then passes it to the kernel without copying it itself.
     */
    public AppendRequest(WriteTarget target, byte[] batch, boolean sync, ByteBuffer staged) {
        this.target = target;
        this.batch = batch;
        this.sync = sync;
        this.staged = staged;
        this.waiter = Thread.currentThread();
        this.callback = null;
    }

    /** An asynchronous request: nobody waits; {@code callback} hears the outcome on the writer thread. */
    public AppendRequest(WriteTarget target, byte[] batch, boolean sync, ByteBuffer staged, Callback callback) {
        this.target = target;
        this.batch = batch;
        this.sync = sync;
        this.staged = staged;
        this.waiter = null;
        this.callback = java.util.Objects.requireNonNull(callback, "callback");
    }

    /**
     * Runs {@code action} with the base offset on the writer thread as the request completes, before the producer or
     * the callback hears of it. The writer completes a log's requests in offset order, so such actions see a log's
     * writes in the order of their offsets (task queues join their new tasks in log order this way). Must be quick
     * and must not block or take locks. Set before the request is submitted.
     */
    public AppendRequest onWritten(java.util.function.LongConsumer action) {
        this.written = action;
        return this;
    }

    /** The producer's direct copy of the batch, or {@code null}. */
    public ByteBuffer staged() {
        return staged;
    }

    public WriteTarget target() {
        return target;
    }

    public byte[] batch() {
        return batch;
    }

    public boolean isSync() {
        return sync;
    }

    /** Writer: the offsets are final and the data as durable as asked. */
    public void complete(long assignedBaseOffset) {
        if (state != PENDING) {
            return;
        }
        this.baseOffset = assignedBaseOffset;
        if (written != null) {
            java.util.function.LongConsumer action = written;
            tell(() -> action.accept(assignedBaseOffset));
        }
        this.state = DONE;
        if (callback != null) {
            tell(() -> callback.completed(assignedBaseOffset));
        } else {
            LockSupport.unpark(waiter);
        }
    }

    public void fail(RuntimeException cause) {
        if (state != PENDING) {
            return;
        }
        this.failure = cause;
        this.state = FAILED;
        if (callback != null) {
            tell(() -> callback.failed(cause));
        } else {
            LockSupport.unpark(waiter);
        }
    }

    /**
     * For callbacks: runs {@code action} on {@code executor}, or on this thread if the executor takes no more work
     * (it is shutting down).
     */
    public static void handOn(java.util.concurrent.Executor executor, Runnable action) {
        try {
            executor.execute(action);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            action.run();
        }
    }

    /** A callback that throws must not keep the writer from completing the rest of its cycle. */
    private static void tell(Runnable call) {
        try {
            call.run();
        } catch (Throwable t) {
            org.slf4j.LoggerFactory.getLogger(AppendRequest.class).error("an append's completion callback failed", t);
        }
    }

    /** Writer: whether the request was written (as durable as asked); false while pending or after a failure. */
    boolean isDone() {
        return state == DONE;
    }

    /** Writer: why the request failed, or {@code null}. */
    RuntimeException failure() {
        return state == FAILED ? failure : null;
    }

    /** Producer: waits for the writer; returns the base offset or throws what the write failed with. */
    long await() {
        int spins = 0;
        while (state == PENDING) {
            if (spins < SPINS) {
                spins++;
                Thread.onSpinWait();
            } else {
                LockSupport.park(this);
            }
        }
        if (state == FAILED) {
            RuntimeException f = failure;
            if (f instanceof MikyuException me) {
                // Re-throw on the caller's thread with its stack, keeping the writer-side cause.
                throw copyOf(me);
            }
            throw f;
        }
        return baseOffset;
    }

    private static RuntimeException copyOf(MikyuException e) {
        try {
            RuntimeException copy = e.getClass().getConstructor(String.class, Throwable.class)
                    .newInstance(e.getMessage(), e);
            return copy;
        } catch (ReflectiveOperationException notCopyable) {
            return e;
        }
    }
}
