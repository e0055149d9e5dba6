package io.mikyu.engine;

/**
 * A transient (memory-only) enqueue would take more memory than a configured limit allows (the queue's or the
 * store's, {@link EngineConfig#transientMemoryLimit()}), at once under the policy {@code fail} or after waiting
 * under {@code block}. Nothing of the call was enqueued; enqueues succeed again once consumers take tasks.
 */
public class MemoryLimitException extends MikyuException {
    private static final long serialVersionUID = 1L;

    public MemoryLimitException(String message) {
        super(message);
    }

    public MemoryLimitException(String message, Throwable cause) {
        super(message, cause);
    }
}
