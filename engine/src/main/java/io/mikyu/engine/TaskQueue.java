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
public interface TaskQueue {

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

    /** Finishes the task. {@link StaleLeaseException} if the lease no longer holds. */
    void ack(LeaseToken token);

    /** Finishes several tasks in one write; stale tokens are refused before anything is acked. */
    void ack(List<LeaseToken> tokens);

    /**
     * As {@link #ack(List)}, returning once the acks are as durable as {@code durability} says (the queue's state
     * durability otherwise): one write, all or nothing. An implementation that cannot choose acks as its
     * configuration says.
     */
    default void ack(List<LeaseToken> tokens, Durability durability) {
        ack(tokens);
    }

    /**
     * Gives the task back: visible again after {@code delay} (the queue's backoff if {@code null}), or to the
     * dead-letter queue with {@code reason} once it has had {@code maxAttempts} deliveries.
     */
    void nack(LeaseToken token, Duration delay, String reason);

    /**
     * Gives back leased items the consumer never handed to its application (a closing prefetch buffer): ready at
     * once, and the lease does not count as a delivery attempt. Stale tokens are refused before any is returned.
     */
    void returnUndelivered(List<LeaseToken> tokens);

    /** Lengthens the lease to {@code lease} from now; returns the new expiry (epoch millis). */
    long extend(LeaseToken token, Duration lease);

    /**
     * Lengthens several leases to {@code lease} from now, in one write where the store runs; returns each new
     * expiry, or -1 for a lease that no longer holds (the others are extended all the same).
     */
    default long[] extend(List<LeaseToken> tokens, Duration lease) {
        long[] until = new long[tokens.size()];
        for (int i = 0; i < until.length; i++) {
            try {
                until[i] = extend(tokens.get(i), lease);
            } catch (StaleLeaseException e) {
                until[i] = -1;
            }
        }
        return until;
    }

    /**
     * Whether the lease of {@code token} still holds: the task was not acked, nacked, given back or handed out
     * again. A read only (nothing is written). Only where the store runs; elsewhere {@link UnsupportedOperationException}.
     */
    default boolean holds(LeaseToken token) {
        throw new UnsupportedOperationException("whether a lease holds is known only where the store runs");
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
