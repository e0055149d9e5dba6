package io.mikyu.engine.spi;

import io.mikyu.engine.Task;

import java.util.List;

/**
 * For transports and senders: transient enqueues ({@code TaskQueue.enqueueTransient}) that do not wait for memory.
 * A broker makes {@link #tryEnqueueTransient} on a connection's event loop; a sender that must not look stuck
 * while the store waits for consumers to free memory (a JMS session's send pipeline, which a receive on the same
 * connection would otherwise wait for) makes {@link #enqueueTransientUnlessFull} first, and the blocking call only
 * after it said {@link #MEMORY_FULL}. The engine's task queues and the network client's implement this.
 */
public interface TransientWrites {

    /** Returned when nothing was enqueued because the call would have had to wait. */
    long MEMORY_FULL = Long.MIN_VALUE;

    /**
     * As {@code enqueueTransient(tasks)} (the first id, or -1 if all expired on arrival), but never waiting: when it
     * would (for memory, to spill to disk, for producer pacing) or could be refused, it enqueues nothing and returns
     * {@link #MEMORY_FULL}, and the caller makes a call that may wait on a thread that may.
     */
    long tryEnqueueTransient(List<Task> tasks);

    /**
     * As {@code enqueueTransient(tasks)}, except that where it would wait for memory (policy {@code block}) it
     * enqueues nothing and returns {@link #MEMORY_FULL}. It may still spill, be paced, or be refused.
     */
    long enqueueTransientUnlessFull(List<Task> tasks);
}
