package io.mikyu.bench.jms;

/**
 * The properties every message carries, so that a consumer can tell which run, producer and place in that producer's
 * sequence it is, and when it was (or, at a fixed rate, was due to be) sent.
 */
final class Stamp {

    /** A random id per run: a message of another run (left in a store) is counted, never taken for this run's. */
    static final String RUN = "benchRun";
    static final String PRODUCER = "benchProducer";
    static final String SEQ = "benchSeq";
    /** {@link System#nanoTime()} at the send, or the scheduled send time at a fixed rate (no coordinated omission). */
    static final String SENT_AT = "benchSentAt";

    private Stamp() {
    }

    /** The JMSXGroupID of producer {@code producer}'s message {@code seq}: its own share of the case's groups. */
    static String group(int producer, long seq, Case workload) {
        int perProducer = Math.max(1, workload.groups() / workload.producers);
        return producer + "-" + (seq % perProducer);
    }
}
