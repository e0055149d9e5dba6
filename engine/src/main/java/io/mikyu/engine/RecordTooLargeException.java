package io.mikyu.engine;

/** A record or batch is larger than the configured maximum; nothing was written. */
public class RecordTooLargeException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public RecordTooLargeException(String message) {
        super(message);
    }

    public RecordTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }
}
