package io.mikyu.kafka.priority;

import io.mikyu.engine.Task;

import java.nio.charset.StandardCharsets;

/**
 * Priorities emulated on Kafka (docs/kafka.md): a task queue has two bands, each a topic and a share group. Priorities
 * 0 to 4 (the default, 4, included) stay on the queue's topic; 5 to 9 go to the high band's topic. A dequeue prefers
 * the high band {@link #HIGH_TURNS} times in {@link #TURNS} and the low band the other time, so a steady high-band
 * load does not starve the low band; within a band tasks come in the topic's order.
 *
 * <p>A task's id is its offset in its band's topic, with {@link #HIGH_ID_BIT} set for the high band: ids stay unique
 * and stable across both topics, and an ack, nack, renewal or dead letter finds the band from the id alone.
 */
public final class PriorityBands {

    /** The lowest priority of the high band. */
    public static final int FIRST_HIGH = 5;

    /** Set in the id of a high-band task; a topic's offsets never reach it. */
    public static final long HIGH_ID_BIT = 1L << 62;

    /** Of every {@link #TURNS} dequeues, this many try the high band first. */
    public static final int HIGH_TURNS = 3;

    public static final int TURNS = 4;

    private PriorityBands() {
    }

    public static boolean isHigh(int priority) {
        return priority >= FIRST_HIGH;
    }

    /** The priority a {@code mikyu.priority} header's value gives ({@code null} or unreadable: the default). */
    public static int priority(byte[] headerValue) {
        if (headerValue == null) {
            return Task.DEFAULT_PRIORITY;
        }
        try {
            int p = Integer.parseInt(new String(headerValue, StandardCharsets.UTF_8).trim());
            return Math.max(0, Math.min(9, p));
        } catch (NumberFormatException e) {
            return Task.DEFAULT_PRIORITY;
        }
    }

    /** The id of the record at {@code offset} of a band. */
    public static long id(boolean high, long offset) {
        return high ? offset | HIGH_ID_BIT : offset;
    }

    public static boolean isHighId(long id) {
        return (id & HIGH_ID_BIT) != 0;
    }

    /** Whether dequeue number {@code turn} of a handle tries the high band first. */
    public static boolean highFirst(long turn) {
        return Math.floorMod(turn, TURNS) < HIGH_TURNS;
    }
}
