package io.mikyu.engine;

/** The queue does not exist. */
public class QueueNotFoundException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public QueueNotFoundException(String message) {
        super(message);
    }

    public QueueNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
