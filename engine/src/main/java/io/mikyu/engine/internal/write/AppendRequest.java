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

    private volatile int state = PENDING;
    private long baseOffset;
    private RuntimeException failure;

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
        this.state = DONE;
        LockSupport.unpark(waiter);
    }

    public void fail(RuntimeException cause) {
        if (state != PENDING) {
            return;
        }
        this.failure = cause;
        this.state = FAILED;
        LockSupport.unpark(waiter);
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
