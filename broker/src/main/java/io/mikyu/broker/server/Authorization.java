package io.mikyu.broker.server;

import io.mikyu.engine.security.Permission;
import io.mikyu.engine.security.Principal;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.TransactionOp;
import io.netty.buffer.ByteBuf;

import java.util.List;

/**
 * Which permission each request needs on the queue it names (its first argument), checked before the request is
 * queued for a worker:
 *
 * <table>
 * <tr><th>permission</th><th>requests</th></tr>
 * <tr><td>produce</td><td>APPEND, APPEND_ENCODED, ENQUEUE; appends and enqueues inside TX_COMMIT and TX_PREPARE</td></tr>
 * <tr><td>consume</td><td>READ_ONE, READ, POLL, START_OFFSET, END_OFFSET, OFFSET_FOR_TIMESTAMP, GROUP_*, DELETE_GROUP,
 * SHARED_*, DEQUEUE, TASK_ACK, TASK_NACK, TASK_EXTEND, TASK_RETURN_UNDELIVERED, BROWSE, STREAM_TASKS,
 * STREAM_SHARED; acks, nacks and offset
 * commits inside transactions</td></tr>
 * <tr><td>manage</td><td>CREATE_LOG, CREATE_TASK_QUEUE, DELETE_LOG, DELETE_TASK_QUEUE, PURGE, COMPACT,
 * APPLY_RETENTION; GET_OR_CREATE_* of a queue that does not exist yet</td></tr>
 * <tr><td>any of the three</td><td>GET_LOG, GET_TASK_QUEUE, GET_OR_CREATE_* of an existing queue, LOG_STATS,
 * TASK_STATS, TASK_COUNTS, GROUPS</td></tr>
 * <tr><td>none (any authenticated user)</td><td>LIST (answers only the queues the user has a permission on), STATS,
 * RECOVERY_REPORT, FLUSH, PREPARED_TRANSACTIONS, COMMIT_PREPARED, ROLLBACK_PREPARED (a prepared transaction's
 * operations were authorized when it was prepared; XA recovery runs as the application's user), CLAIM,
 * RELEASE_CLAIM, CLAIM_HOLDERS (names, not queues: a JMS client ID, a subscription's consumers), STREAM_CLOSE (a
 * stream is the connection's own; opening it was checked)</td></tr>
 * </table>
 */
final class Authorization {

    private Authorization() {
    }

    /**
     * @param args the request's arguments (read from a duplicate: the frame itself is decoded afterwards)
     * @throws io.mikyu.engine.AccessDeniedException if the principal lacks the permission
     */
    static void check(Op op, ByteBuf args, Principal principal) {
        if (principal.unrestricted()) {
            return;
        }
        switch (op) {
            case LIST, STATS, RECOVERY_REPORT, FLUSH, PREPARED_TRANSACTIONS, COMMIT_PREPARED, ROLLBACK_PREPARED,
                 TX_COMMIT, TX_PREPARE, CLAIM, RELEASE_CLAIM, CLAIM_HOLDERS, STREAM_CLOSE -> {
                // store-wide, or checked per operation once decoded (transactions: checkTransaction)
            }
            case GET_LOG, GET_TASK_QUEUE, GET_OR_CREATE_LOG, GET_OR_CREATE_TASK_QUEUE, LOG_STATS, TASK_STATS,
                 TASK_COUNTS, GROUPS -> principal.checkAny(queue(args));
            case CREATE_LOG, CREATE_TASK_QUEUE, DELETE_LOG, DELETE_TASK_QUEUE, PURGE, COMPACT, APPLY_RETENTION ->
                    principal.check(Permission.MANAGE, queue(args));
            case APPEND, APPEND_ENCODED, ENQUEUE -> principal.check(Permission.PRODUCE, queue(args));
            default -> principal.check(Permission.CONSUME, queue(args));
        }
    }

    /** Every operation of a transaction, before any is carried out. */
    static void checkTransaction(List<TransactionOp> ops, Principal principal) {
        for (TransactionOp o : ops) {
            principal.check(o.produces() ? Permission.PRODUCE : Permission.CONSUME, o.queue());
        }
    }

    private static String queue(ByteBuf args) {
        String name = Fields.readString(args);
        return name == null ? "" : name;
    }
}
