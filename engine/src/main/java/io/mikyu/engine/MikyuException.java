package io.mikyu.engine;

/** The root of mikyu's errors. Messages are one line, naming the queue, file or limit involved. */
public class MikyuException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MikyuException(String message) {
        super(message);
    }

    public MikyuException(String message, Throwable cause) {
        super(message, cause);
    }
}
