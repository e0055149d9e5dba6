package io.mikyu.engine.faults;

/** What a fault scenario counted over its cycles, for the results table of docs/reliability.md. */
final class Tally {

    /** Operations acknowledged by the store before the fault. */
    long acknowledged;
    /** Acknowledged and durable by their promise (sync, or before a completed flush), yet missing afterwards. */
    long lost;
    /** Acknowledged as finished (acked, deleted, decided), yet back afterwards. */
    long reappeared;
    /** Asynchronous appends acknowledged but not yet flushed, lost as the promise allows. */
    long asyncLost;
    /** The longest time between the acknowledgement of a lost asynchronous append and the power loss. */
    long asyncLossWindowMillis;

    @Override
    public String toString() {
        return "acknowledged " + acknowledged + ", lost " + lost + ", reappeared " + reappeared
                + ", async lost (allowed) " + asyncLost + " within " + asyncLossWindowMillis + " ms of the cut";
    }
}
