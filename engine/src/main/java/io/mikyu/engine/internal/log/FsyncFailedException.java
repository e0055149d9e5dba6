package io.mikyu.engine.internal.log;

import java.io.IOException;

/**
 * An fsync of a segment failed. Kept apart from other I/O errors because it is not retryable: a failed write (a full
 * disk) is undone and tried again, a failed fsync stops the log (see {@link SegmentedLog#failure()}).
 */
final class FsyncFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    FsyncFailedException(String file, IOException cause) {
        super("fsync of " + file + " failed: " + cause.getMessage(), cause);
    }
}
