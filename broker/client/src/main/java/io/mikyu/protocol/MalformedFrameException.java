package io.mikyu.protocol;

/**
 * A frame that breaks the protocol: a field out of bounds, an unknown type, bytes left over. The receiver answers
 * with a connection-level {@link ErrorCode#PROTOCOL} error and closes the connection; the peer's other
 * connections, and everyone else's, carry on.
 */
public final class MalformedFrameException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedFrameException(String message) {
        super(message, null, false, false);
    }
}
