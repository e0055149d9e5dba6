package io.mikyu.engine;

/** The data directory is held by another process, or already open in this one. */
public class StoreLockedException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public StoreLockedException(String message) {
        super(message);
    }

    public StoreLockedException(String message, Throwable cause) {
        super(message, cause);
    }
}
