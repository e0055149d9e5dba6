package io.mikyu.engine;

/** A queue of that name and kind exists already. */
public class QueueExistsException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public QueueExistsException(String message) {
        super(message);
    }

    public QueueExistsException(String message, Throwable cause) {
        super(message, cause);
    }
}
