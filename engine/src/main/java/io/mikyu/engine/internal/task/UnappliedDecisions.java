package io.mikyu.engine.internal.task;

import java.util.TreeMap;

/**
 * Decisions whose state record may be in the log before their queue's memory shows them: an ack, nack, renewal or
 * a transaction's settlement is decided under the queue's lock, written, and only then applied. A checkpoint of the
 * memory taken in between must be replayed from below that record, so each such decision is noted here, under the
 * lock, with the log's end when it was decided (its record lands at or after it), and forgotten once applied (or
 * given up). Guarded by the queue's lock.
 */
final class UnappliedDecisions {

    /** Log end when decided → how many decisions of that end are unapplied. */
    private final TreeMap<Long, Integer> from = new TreeMap<>();

    /** A decision whose record will be written at or after {@code logEnd}; returns what {@link #applied} takes. */
    long decided(long logEnd) {
        from.merge(logEnd, 1, Integer::sum);
        return logEnd;
    }

    /** The decision {@link #decided} returned {@code token} for is applied, or will never be. */
    void applied(long token) {
        from.computeIfPresent(token, (k, n) -> n == 1 ? null : n - 1);
    }

    /** The lowest offset an unapplied decision's record may have, or {@code Long.MAX_VALUE}. */
    long floor() {
        return from.isEmpty() ? Long.MAX_VALUE : from.firstKey();
    }
}
