package io.mikyu.engine;

/**
 * An authenticated user lacks the permission a call needs on a queue; the message names the user, the permission
 * ({@code produce}, {@code consume} or {@code manage}) and the queue.
 */
public class AccessDeniedException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public AccessDeniedException(String message) {
        super(message);
    }
}
