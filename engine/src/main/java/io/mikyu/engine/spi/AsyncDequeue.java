package io.mikyu.engine.spi;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.TaskFilter;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * For transports: dequeues that hold no thread, neither while nothing is ready nor while the lease records are
 * written. A broker pushing a consumer stream takes on the connection's event loop and writes the tasks out from
 * the completion; with a waiting thread per stream every delivery cost a thread wake-up or two more. The engine's
 * own task queues implement this; anything else declines, and the caller makes the blocking call.
 */
public interface AsyncDequeue {

    /** How a {@link #tryDequeueAsync} started. */
    enum Start {
        /** Tasks were leased: the completion hears of them. */
        TAKEN,
        /** None is ready: {@code whenReady} runs once when some may be (or the queue closes), then try again. */
        WAITING,
        /** Not started (the queue has due work to apply first, or cannot take so): make the blocking call. */
        DECLINED
    }

    /** The outcome of a {@link Start#TAKEN} dequeue; exactly one method is called, once, on the continuation. */
    interface Completion {
        void completed(List<LeasedTask> tasks);

        void failed(RuntimeException failure);
    }

    /**
     * As {@code TaskQueue.dequeue(max, lease, Duration.ZERO, filter)}, without waiting for the lease records:
     * {@code done} gets the tasks from {@code continuation} once their leases are written as durably as the
     * queue's. {@code whenReady} must be brief (it is run under the queue's lock, from any thread: hand the retry
     * to your own executor) and is registered once however often it is passed. Throws as {@code dequeue} does for a
     * closed or deleted queue.
     */
    default Start tryDequeueAsync(int max, Duration lease, TaskFilter filter, Executor continuation,
                                  Completion done, Runnable whenReady) {
        return Start.DECLINED;
    }

    /** Forgets {@code whenReady} if it is registered (a stream that closes while waiting). */
    default void cancelWhenReady(Runnable whenReady) {
    }
}
