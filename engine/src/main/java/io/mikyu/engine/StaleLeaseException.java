package io.mikyu.engine;

/**
 * A lease token no longer holds: its lease expired and the task was handed out again, or the task was already
 * acked, dead-lettered or purged. Nothing was changed.
 */
public class StaleLeaseException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public StaleLeaseException(String message) {
        super(message);
    }

    public StaleLeaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
