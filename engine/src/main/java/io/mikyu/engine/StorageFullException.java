package io.mikyu.engine;

/** The disk is full or below the configured free-space floor; the write failed, nothing half-written is visible, and writes succeed again when space returns. */
public class StorageFullException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public StorageFullException(String message) {
        super(message);
    }

    public StorageFullException(String message, Throwable cause) {
        super(message, cause);
    }
}
