package io.mikyu.engine.internal.write;

import java.io.IOException;
import java.util.List;

/**
 * A queue's storage as the writer thread sees it. Every method is called on the writer thread only, which is
 * why implementations need no locks on their write-side state.
 *
 * <p>A commit cycle calls {@link #write} once per touched target with its requests in arrival order, then
 * {@link #force} on the targets that need it, then {@link #publish} (readers see the records) before the
 * requests are completed; {@link #abort} replaces publish when the write failed.
 */
public interface WriteTarget {

    /**
     * Assigns offsets to the requests' batches and writes them; returns bytes written. Throws
     * {@link PartialWriteException} when only the first requests could be stored.
     */
    long write(List<AppendRequest> requests) throws IOException;

    /** fsyncs what {@link #write} wrote since the last force. */
    void force() throws IOException;

    /** After a successful {@link #force} by the writer thread: everything {@link #write} wrote so far is durable. */
    default void forcedInCycle() {
    }

    /** {@code true} if written data has not been fsynced. */
    boolean isDirty();

    /** Makes the written records visible to readers and wakes those waiting for them. */
    void publish();

    /**
     * Forgets everything written since the last publish (the write failed), except what a
     * {@link PartialWriteException} said is stored; offsets are handed out again.
     */
    void abort();

    /** A description for errors: kind and name of the queue. */
    String describe();

    /** {@code false} once the queue is closed or deleted: its requests fail. */
    boolean isOpen();

    /** Why the target stopped taking writes (a failed fsync), or {@code null}: its requests fail with it. */
    RuntimeException failure();
}
