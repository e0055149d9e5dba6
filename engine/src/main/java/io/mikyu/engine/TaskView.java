package io.mikyu.engine;

/** What a {@link TaskFilter} sees of a task: its metadata and headers, not its payload. */
public interface TaskView {

    long id();

    int priority();

    Headers headers();

    /** Times the task has been handed out so far. */
    int attempts();

    /** Epoch millis at which the task was enqueued. */
    long enqueuedAt();

    /** Epoch millis after which the task expires, 0 for never. */
    long expiresAt();
}
