package io.mikyu.engine;

/**
 * How many tasks a queue holds, by state.
 *
 * @param ready     deliverable now
 * @param scheduled waiting for their delivery time or redelivery backoff
 * @param inFlight  handed out under a lease, not yet acked
 */
public record TaskCounts(long ready, long scheduled, long inFlight) {

    /** Every task not yet finished. */
    public long depth() {
        return ready + scheduled + inFlight;
    }
}
