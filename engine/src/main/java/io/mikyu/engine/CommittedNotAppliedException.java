package io.mikyu.engine;

/**
 * A transaction is committed (its COMMIT record is durable) but writing its operations to their queues failed; the
 * store applies them later, by housekeeping or when it is next opened. Not a rollback: nothing is to be done again.
 */
public class CommittedNotAppliedException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public CommittedNotAppliedException(String message) {
        super(message);
    }

    public CommittedNotAppliedException(String message, Throwable cause) {
        super(message, cause);
    }
}
