package io.mikyu.engine.internal.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Task;

/** One operation of a transaction, as buffered and as stored in the transaction log. */
public sealed interface TxOp {

    /** The queue (and group) the operation writes to, as the key its writes are grouped by. */
    String target();

    /** The queue the operation writes to or settles on (for a group's operations, its log queue). */
    String queue();

    record Append(String logQueue, Entry entry) implements TxOp {
        public String queue() {
            return logQueue;
        }

        public String target() {
            return TxTarget.log(logQueue);
        }
    }

    record Enqueue(String taskQueue, Task task) implements TxOp {
        public String queue() {
            return taskQueue;
        }

        public String target() {
            return TxTarget.task(taskQueue);
        }
    }

    /** Ack ({@code nack == false}) or nack of a task; {@code delayMillis} -1 means the queue's backoff. */
    record Settle(String taskQueue, LeaseToken token, boolean nack, long delayMillis, String reason) implements TxOp {
        public String queue() {
            return taskQueue;
        }

        public String target() {
            return TxTarget.task(taskQueue);
        }
    }

    record SettleShared(String logQueue, String group, LeaseToken token, boolean nack, long delayMillis,
                        String reason) implements TxOp {
        public String queue() {
            return logQueue;
        }

        public String target() {
            return TxTarget.sharedGroup(logQueue, group);
        }
    }

    /**
     * The DEAD record of work item {@code id} (held under {@code lease}) in the task queue or shared group
     * {@code target} (a {@link TxTarget} name: {@code task/<queue>} or {@code shared-group/<queue>:<group>}):
     * committed with the {@link Enqueue} of its copy to the dead-letter queue, so the move is one atomic step.
     */
    record DeadLetter(String target, long id, long lease, int attempts, String reason) implements TxOp {
        public String queue() {
            return TxTarget.parse(target).queue();
        }
    }

    record CommitOffset(String logQueue, String group, long offset) implements TxOp {
        public String queue() {
            return logQueue;
        }

        public String target() {
            return TxTarget.offsets(logQueue, group);
        }
    }
}
