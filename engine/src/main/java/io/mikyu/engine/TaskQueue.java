package io.mikyu.engine;

import java.time.Duration;
import java.util.List;

/**
 * An at-least-once work queue. {@link #dequeue} hands tasks out under a lease; {@link #ack} finishes one;
 * {@link #nack} or an expired lease brings it back after a backoff, until {@link TaskQueueConfig#maxAttempts()}
 * deliveries send it to the queue's dead-letter queue ({@link #deadLetters()}). Tasks are handed out by priority,
 * FIFO within a priority; delayed tasks wait for their time; expired tasks are dropped, never delivered.
 *
 * <p>Ids are assigned in enqueue order and never reused. Every state change (enqueue, lease, ack, nack) is a
 * record in the queue's log, recovered on open. All methods are thread-safe.
 */
public interface TaskQueue extends Leases {

    /** The suffix of a dead-letter queue's name: the dead letters of {@code jobs} are in {@code jobs/dlq}. */
    String DEAD_LETTER_SUFFIX = "/dlq";

    /** Headers a dead-lettered task carries, besides its own. */
    String DLQ_ORIGINAL_QUEUE = "mikyu.dlq.queue";
    String DLQ_ORIGINAL_ID = "mikyu.dlq.id";
    String DLQ_ATTEMPTS = "mikyu.dlq.attempts";
    String DLQ_REASON = "mikyu.dlq.reason";

    String name();

    TaskQueueConfig config();

    /** Enqueues one task with the queue's durability; returns its id. */
    default long enqueue(Task task) {
        return enqueue(task, config().durability());
    }

    long enqueue(Task task, Durability durability);

    /** Enqueues the tasks together (one write); returns the id of the first, the others follow consecutively. */
    default long enqueueBatch(List<Task> tasks) {
        return enqueueBatch(tasks, config().durability());
    }

    long enqueueBatch(List<Task> tasks, Durability durability);

    /**
     * Hands out up to {@code max} ready tasks (matching {@code filter} if not null) under a lease of
     * {@code lease}, waiting up to {@code wait} for the first. Returns an empty list if none came.
     */
    /**
     * Enqueues tasks kept in memory only: nothing is written, so they are gone after a restart or a crash (JMS
     * NON_PERSISTENT messages). They are leased, acked, retried, delayed, expired and dead-lettered (to memory) like
     * any other task; they sort after stored tasks of the same priority. Returns the first task's id, or -1 if all
     * expired on arrival. A queue that cannot keep tasks in memory (a remote one) stores them as
     * {@link Durability#ASYNC}.
     */
    default long enqueueTransient(List<Task> tasks) {
        return enqueueBatch(tasks, Durability.ASYNC);
    }

    List<LeasedTask> dequeue(int max, Duration lease, Duration wait, TaskFilter filter) throws InterruptedException;

    /** One task with the default lease, or {@code null} after {@code wait}. */
    default LeasedTask dequeue(Duration wait) throws InterruptedException {
        List<LeasedTask> tasks = dequeue(1, config().defaultLease(), wait, null);
        return tasks.isEmpty() ? null : tasks.get(0);
    }

    /** Ready tasks in delivery order, without leasing them, matching {@code filter} if not null. */
    List<LeasedTask> browse(int max, TaskFilter filter);

    /** Removes every ready and scheduled task (leased ones stay with their holders). Returns how many. */
    long purge();

    TaskCounts counts();

    /** This queue's dead-letter queue ({@code <name>/dlq}); {@code null} for a dead-letter queue itself. */
    TaskQueue deadLetters();

    QueueStats stats();
}
