package io.mikyu.bench.kafka;

import java.util.BitSet;

/**
 * Which messages of a run arrived, by producer and sequence number: every message sent must arrive exactly once
 * (once at the one durable subscriber of a log, once across the consumers of a queue).
 */
final class Ledger {

    private final BitSet[] seen;
    private long duplicates;
    private long foreign;

    Ledger(int producers) {
        seen = new BitSet[producers];
        for (int i = 0; i < producers; i++) {
            seen[i] = new BitSet();
        }
    }

    /** Notes a message; false if it is a duplicate or not of this run. */
    synchronized boolean first(boolean ofThisRun, int producer, long seq) {
        if (!ofThisRun || producer < 0 || producer >= seen.length || seq < 0 || seq > Integer.MAX_VALUE) {
            foreign++;
            return false;
        }
        if (seen[producer].get((int) seq)) {
            duplicates++;
            return false;
        }
        seen[producer].set((int) seq);
        return true;
    }

    /** Messages sent (producer {@code i} sent sequence numbers 0 to {@code sent[i] - 1}) that never arrived. */
    synchronized long lost(long[] sent) {
        long lost = 0;
        for (int i = 0; i < seen.length; i++) {
            lost += sent[i] - seen[i].get(0, (int) sent[i]).cardinality();
        }
        return lost;
    }

    synchronized long duplicates() {
        return duplicates;
    }

    synchronized long foreign() {
        return foreign;
    }
}
