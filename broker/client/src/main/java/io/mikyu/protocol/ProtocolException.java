package io.mikyu.protocol;

import io.mikyu.engine.MikyuException;

/** The other side broke the protocol, or speaks a version this one does not; the connection is closed. */
public final class ProtocolException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }
}
