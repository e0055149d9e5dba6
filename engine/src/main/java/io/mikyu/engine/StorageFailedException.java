package io.mikyu.engine;

/**
 * An fsync of a queue's files failed. What the operating system held for those files may never reach the disk, and a
 * later fsync that succeeds does not prove otherwise, so the queue acknowledges nothing more and serves no reads: it
 * is stopped until the store is closed and opened again, which recovers it from what the files hold.
 */
public class StorageFailedException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public StorageFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
