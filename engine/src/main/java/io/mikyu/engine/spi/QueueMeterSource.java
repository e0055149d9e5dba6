package io.mikyu.engine.spi;

import io.mikyu.engine.Mikyu;

import java.util.Optional;

/**
 * Every queue's meters ({@code mikyu.queue.*}, {@code mikyu.group.lag}), read from the queues' own counters when
 * asked: what an in-process store offers a metrics endpoint instead of registering meters per queue. With tens of
 * thousands of queues, two dozen registered meters a queue cost hundreds of megabytes of heap and a lock per
 * registration on open; read here, a queue costs nothing until a scrape walks it.
 *
 * <p>Per-queue meters go either to the store's meter registry or here, see
 * {@link io.mikyu.engine.EngineConfig.Builder#perQueueMeters(boolean)}. The names, tags and meanings are those of
 * the registered meters.
 */
public interface QueueMeterSource {

    /** What a family's samples are. */
    enum Type {
        /** A monotonic count. */
        COUNTER,
        /** A value that goes up and down. */
        GAUGE,
        /** A count of calls and their total time ({@link Visitor#timer}). */
        TIMER
    }

    /**
     * One meter name, with its type and description, e.g. {@code mikyu.queue.in}.
     *
     * @param detail {@code true} for a family read only when the detail is asked for (see {@link #visit(Visitor,
     *               boolean)}): what helps tuning one queue (cache hits, segments, append latency, ...) rather than
     *               what an operator watches on every queue
     */
    record Family(String name, Type type, String description, boolean detail) {
    }

    /** Receives the families one at a time, each followed by all of its samples. */
    interface Visitor {

        /** The next family; its samples follow (none when no queue has it). */
        void family(Family family);

        /**
         * A counter's or gauge's value for one queue.
         *
         * @param group the consumer group ({@code mikyu.group.lag}), else {@code null}
         */
        void sample(String queue, String kind, String group, double value);

        /** A timer's calls and their total time for one queue. */
        void timer(String queue, String kind, long count, double totalSeconds);
    }

    /** Walks every family, the detail included, and every open queue's value of it, reading the values now. */
    default void visit(Visitor visitor) {
        visit(visitor, true);
    }

    /**
     * Walks the families (those marked {@link Family#detail() detail} only when {@code detail}) and every open
     * queue's value of each. Each queue's values are read once, together, before anything is passed on: one lock
     * of a task queue per scrape, not one per meter. A queue not opened yet since the store opened (queues open on
     * first use and in the background) has no values until it is open.
     */
    void visit(Visitor visitor, boolean detail);

    /** The source of an in-process store; empty for a store elsewhere (a broker serves its own metrics). */
    static Optional<QueueMeterSource> of(Mikyu mikyu) {
        return mikyu instanceof QueueMeterSource source ? Optional.of(source) : Optional.empty();
    }
}
