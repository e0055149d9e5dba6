package io.mikyu.it.xa;

/** How {@link OrderService#place} ends the transaction in which it inserted a row and sent a message. */
public enum Outcome {
    /** returns normally: the container commits */
    COMMIT,
    /** marks the transaction rollback-only and returns */
    ROLLBACK_ONLY,
    /** throws after both the insert and the send: the container rolls back */
    FAIL_AFTER_BOTH
}
