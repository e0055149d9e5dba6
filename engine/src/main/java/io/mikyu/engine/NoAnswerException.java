package io.mikyu.engine;

/**
 * A broker did not answer a request in time. The request may still have been carried out: a caller that must not
 * guess (a two-phase commit, say) treats the outcome as unknown.
 */
public class NoAnswerException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public NoAnswerException(String message) {
        super(message);
    }
}
