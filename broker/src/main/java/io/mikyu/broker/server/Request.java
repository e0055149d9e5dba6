package io.mikyu.broker.server;

import io.mikyu.engine.spi.AsyncWrites;

import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * A decoded request: the engine call it asks for, with what the connection needs to know to run it.
 * {@code waits}: it may block for a while (a long poll) and runs on the waiting pool; {@code async}: it may start
 * on the event loop instead of a worker; {@code inline}: it may be answered on the event loop without waiting.
 */
record Request(EngineCall call, boolean waits, AsyncCall async, InlineCall inline) {

    Request(EngineCall call, boolean waits) {
        this(call, waits, null, null);
    }

    Request(EngineCall call, boolean waits, AsyncCall async) {
        this(call, waits, async, null);
    }

    /** A request that does not wait: it runs on a worker. */
    static Request now(EngineCall call) {
        return new Request(call, false);
    }

    /** A request that waits up to {@code wait} (a long poll): on the waiting pool unless it waits not at all. */
    static Request waiting(Duration wait, EngineCall call) {
        return new Request(call, wait != null && wait.toMillis() > 0);
    }

    /** The work of one request, on a worker thread. */
    @FunctionalInterface
    interface EngineCall {
        void run(Reply reply) throws Exception;
    }

    /**
     * A write the broker may start on the event loop and answer from its completion ({@link AsyncWrites}), so it
     * crosses no worker; {@code false} if it cannot be started that way, and {@link Request#call} runs on a worker.
     */
    interface AsyncCall {
        boolean start(Executor continuation, AsyncWrites.Completion done);
    }

    /**
     * An enqueue to a task queue: it may be paced (held back to the queue's consumers), and the connection's later
     * enqueues then wait behind it, so that a producer's enqueues keep their order.
     */
    interface EnqueueCall extends AsyncCall {
    }

    /**
     * A long poll's answer without waiting, tried on the event loop before the poll goes to the waiting pool: when
     * there is something to answer at once (a tailing reader usually finds what arrived since its last poll), that
     * saves the two thread hand-offs. Writes into the reply and returns {@code true} if it answered; {@code false}
     * (the reply untouched) if there is nothing yet.
     */
    interface InlineCall {
        boolean answer(Reply reply) throws Exception;
    }
}
