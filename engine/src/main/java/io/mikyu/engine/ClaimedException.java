package io.mikyu.engine;

/** A claim was refused: the name is held exclusively, or held at all when an exclusive claim was asked for. */
public class ClaimedException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public ClaimedException(String message) {
        super(message);
    }

    public ClaimedException(String message, Throwable cause) {
        super(message, cause);
    }
}
