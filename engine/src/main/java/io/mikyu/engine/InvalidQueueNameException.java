package io.mikyu.engine;

/** A queue or group name is empty, too long, reserved, or has characters outside [A-Za-z0-9._-]. */
public class InvalidQueueNameException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public InvalidQueueNameException(String message) {
        super(message);
    }

    public InvalidQueueNameException(String message, Throwable cause) {
        super(message, cause);
    }
}
