package io.mikyu.bench.jms;

import java.util.BitSet;
import java.util.List;

/**
 * Checks what the consumers received against what the producers committed, by message id (producer, sequence):
 * on a queue every committed message exactly once across all consumers, on a topic every committed message exactly
 * once at every subscriber, and nothing else.
 *
 * @param lost       committed messages nobody (queue) or some subscriber (topic) received
 * @param duplicates messages received more than once (by one consumer, or on a queue by two)
 * @param unexpected messages received that their producer never committed (a rolled-back or unfinished send)
 * @param foreign    messages of another run, malformed ids and bodies of the wrong size, and in a grouped case
 *                   messages that came after a later one of their group
 */
record Verification(long lost, long duplicates, long unexpected, long foreign) {

    boolean ok() {
        return lost == 0 && duplicates == 0 && unexpected == 0 && foreign == 0;
    }

    static Verification of(Case.Destination destination, long[] committed, List<Tally> tallies) {
        long lost = 0;
        long duplicates = 0;
        long unexpected = 0;
        long foreign = 0;
        for (Tally t : tallies) {
            duplicates += t.duplicates;
            foreign += t.foreign + t.malformed + t.outOfGroupOrder;
        }
        for (int p = 0; p < committed.length; p++) {
            int sent = Math.toIntExact(committed[p]);
            if (destination == Case.Destination.QUEUE) {
                BitSet union = new BitSet();
                long sum = 0;
                for (Tally t : tallies) {
                    union.or(t.seen[p]);
                    sum += t.seen[p].cardinality();
                }
                duplicates += sum - union.cardinality();
                lost += sent - union.get(0, sent).cardinality();
                unexpected += union.cardinality() - union.get(0, sent).cardinality();
            } else {
                for (Tally t : tallies) {
                    lost += sent - t.seen[p].get(0, sent).cardinality();
                    unexpected += t.seen[p].cardinality() - t.seen[p].get(0, sent).cardinality();
                }
            }
        }
        return new Verification(lost, duplicates, unexpected, foreign);
    }
}
