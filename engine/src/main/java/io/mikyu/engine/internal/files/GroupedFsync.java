package io.mikyu.engine.internal.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * One directory's fsync shared by the threads that ask for it at once, as group commit shares a log's fsync
 * between appends: a caller returns once an fsync that began after it asked has completed, and callers arriving
 * while one runs share the next. Queues created at once by several threads publish their folders in the same
 * parent: one fsync of it then makes every rename made before it durable.
 */
public final class GroupedFsync {

    /** One fsync and the callers it covers: every ticket up to {@code upTo}. */
    private static final class Round {
        final long upTo;
        boolean done;
        RuntimeException failure;

        Round(long upTo) {
            this.upTo = upTo;
        }
    }

    private final Runnable fsync;
    /** Tickets handed out: one per call. Guarded by {@code this}. */
    private long asked;
    /** The fsync under way, or null. Guarded by {@code this}. */
    private Round current;
    /** fsyncs done (or failed). Guarded by {@code this}. */
    private long rounds;

    /** Shares fsyncs of {@code dir}. */
    public GroupedFsync(Path dir) {
        this(() -> Directories.fsync(dir));
    }

    /** Shares runs of {@code fsync}, which throws on failure. */
    public GroupedFsync(Runnable fsync) {
        this.fsync = fsync;
    }

    /**
     * Returns once an fsync begun after this call has completed; throws if that fsync failed (every caller it
     * covered gets the failure: none of their changes may be durable).
     */
    public void fsync() {
        Round round;
        boolean lead;
        boolean interrupted = false;
        synchronized (this) {
            long ticket = ++asked;
            // an fsync already running may have begun before this caller's change: wait for the next one
            while (current != null && current.upTo < ticket) {
                interrupted |= await();
            }
            lead = current == null;
            if (lead) {
                current = new Round(asked);
            }
            round = current;
            while (!lead && !round.done) {
                interrupted |= await();
            }
        }
        if (lead) {
            RuntimeException failure = null;
            try {
                fsync.run();
            } catch (RuntimeException e) {
                failure = e;
            }
            synchronized (this) {
                round.failure = failure;
                round.done = true;
                current = null;
                rounds++;
                notifyAll();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (round.failure != null) {
            if (lead) {
                throw round.failure;
            }
            // a copy per caller: each adds its own suppressed errors to what it throws
            Throwable cause = round.failure.getCause() instanceof IOException io ? io : round.failure;
            throw new UncheckedIOException(round.failure.getMessage(), cause instanceof IOException io
                    ? io : new IOException(cause));
        }
    }

    /** How many fsyncs were run (shared or not). */
    public synchronized long rounds() {
        return rounds;
    }

    /** How many calls were made. */
    public synchronized long calls() {
        return asked;
    }

    /** Waits on this; true if interrupted (the fsync is still awaited: a caller's change must not be left unsure). */
    private boolean await() {
        try {
            wait();
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }
}
