package io.mikyu.engine.internal.write;

import java.io.IOException;

/**
 * A {@link WriteTarget#write} that stored its first {@link #stored()} requests durably (they are in a sealed,
 * fsynced segment) and could not write the rest: the writer completes the first and fails the others, instead of
 * failing requests whose records stay readable.
 */
public final class PartialWriteException extends IOException {

    private final int stored;

    public PartialWriteException(int stored, IOException cause) {
        super(cause.getMessage(), cause);
        this.stored = stored;
    }

    /** How many of the requests, from the first, are stored. */
    public int stored() {
        return stored;
    }
}
