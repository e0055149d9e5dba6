package io.mikyu.engine.spi;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.engine.Task;

import java.util.List;
import java.util.concurrent.Executor;

/**
 * For transports: writes that report their outcome to a callback instead of holding the calling thread until the
 * group commit is done. A broker starts them on the connection's event loop and answers from the callback, so a
 * request crosses no worker thread. The engine's own queues implement this; a queue that does not (a dialled one)
 * refuses every call with {@code false}, and the caller makes the ordinary blocking call instead.
 */
public interface AsyncWrites {

    /** The outcome of an asynchronous write; exactly one method is called, once, on the continuation executor. */
    interface Completion {
        void completed(long value);

        void failed(RuntimeException failure);

        /**
         * A paced enqueue starts ({@code true}) or stops ({@code false}) waiting for the consumers: a transport may
         * stop reading the producer's connection meanwhile. Called on the caller's thread or the continuation's.
         */
        default void paced(boolean waiting) {
        }
    }

    /**
     * As {@code TaskQueue.enqueueBatch(tasks, durability)}: {@code done} gets the id of the first task, from
     * {@code continuation}, once the tasks are written as durably as asked and ready. If the enqueue has to wait
     * first (producer pacing) and {@code continuation} is a {@link java.util.concurrent.ScheduledExecutorService}
     * (a Netty event loop is), it waits on it without holding a thread ({@link Completion#paced}); otherwise this
     * returns {@code false}, doing nothing, and the caller makes the blocking call.
     */
    default boolean tryEnqueueAsync(List<Task> tasks, Durability durability, Executor continuation,
                                    Completion done) {
        return false;
    }

    /**
     * As {@code LogQueue.appendEncoded(batch, durability)}: {@code done} gets the offset of the first record, from
     * {@code continuation}. A malformed batch is refused by an exception from this call, before anything is written.
     */
    default boolean tryAppendEncodedAsync(EncodedBatch batch, Durability durability, Executor continuation,
                                          Completion done) {
        return false;
    }
}
