package io.mikyu.bench.jms;

import org.HdrHistogram.Histogram;

import java.util.BitSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one consumer received: for each producer the set of sequence numbers seen (and how many of them twice), the
 * latency of the messages sent inside the measured window, and what did not belong (another run's messages, a body
 * of the wrong size, a producer or sequence number out of range). Written by its consumer thread only; the run reads
 * {@link #received} while draining and the rest after the thread ended.
 */
final class Tally {

    static final long MAX_LATENCY_NS = TimeUnit.MINUTES.toNanos(10);

    final BitSet[] seen;
    final Histogram latency = new Histogram(MAX_LATENCY_NS, 3);
    final AtomicLong received = new AtomicLong();
    long receivedInWindow;
    long duplicates;
    long redelivered;
    long foreign;
    long malformed;
    /** Grouped cases: messages that came after a later one of their group (at this consumer). */
    long outOfGroupOrder;
    private final java.util.Map<String, Long> lastOfGroup = new java.util.HashMap<>();

    Tally(int producers) {
        seen = new BitSet[producers];
        for (int i = 0; i < producers; i++) {
            seen[i] = new BitSet();
        }
    }

    /** A grouped message: its group's messages must come in their producer's order (a redelivery may repeat). */
    void inGroup(String group, long seq, boolean wasRedelivered) {
        Long last = lastOfGroup.put(group, seq);
        if (last != null && seq < last && !wasRedelivered) {
            outOfGroupOrder++;
        }
    }

    /** Records one message of this run; {@code now} is when it was received. */
    void record(int producer, long seq, long sentAt, boolean wasRedelivered, long now, long windowStart,
                long windowEnd) {
        if (producer < 0 || producer >= seen.length || seq < 0 || seq >= Integer.MAX_VALUE) {
            malformed++;
            return;
        }
        if (seen[producer].get((int) seq)) {
            duplicates++;
        } else {
            seen[producer].set((int) seq);
        }
        if (wasRedelivered) {
            redelivered++;
        }
        if (sentAt >= windowStart) {
            latency.recordValue(Math.min(Math.max(now - sentAt, 0), MAX_LATENCY_NS));
        }
        if (now >= windowStart && now < windowEnd) {
            receivedInWindow++;
        }
        received.lazySet(received.get() + 1);
    }
}
