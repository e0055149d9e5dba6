package io.mikyu.engine;

/** The store (or queue) was closed. */
public class StoreClosedException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public StoreClosedException(String message) {
        super(message);
    }

    public StoreClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
