package io.mikyu.engine;

/** The offset lies before the start or at/after the end of the log. */
public class OffsetOutOfRangeException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public OffsetOutOfRangeException(String message) {
        super(message);
    }

    public OffsetOutOfRangeException(String message, Throwable cause) {
        super(message, cause);
    }
}
