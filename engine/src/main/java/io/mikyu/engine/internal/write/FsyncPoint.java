package io.mikyu.engine.internal.write;

import java.io.IOException;

/**
 * What a cycle wrote to a target whose fsyncs run beside the writer ({@link WriteTarget#fsyncPoint()}): fsyncing
 * it makes every byte the writer wrote to that target up to this point durable.
 */
public interface FsyncPoint {

    /**
     * fsyncs everything written up to this point, through {@code own}, the calling thread's own open file. A failed
     * fsync stops the target (its {@link WriteTarget#failure()}), as the writer's own failed fsync does.
     */
    void force(OwnFile own) throws IOException;

    /**
     * Requests up to this point were acknowledged (called in offset order, under the pipeline's lock): what a failed
     * fsync makes the target forget ({@link WriteTarget#discardUnacknowledged}) starts after it.
     */
    default void acknowledged() {
    }
}
