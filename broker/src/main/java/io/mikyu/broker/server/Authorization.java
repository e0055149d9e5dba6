package io.mikyu.broker.server;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.TransactionNotFoundException;
import io.mikyu.engine.security.Permission;
import io.mikyu.engine.security.Principal;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.TransactionOp;
import io.netty.buffer.ByteBuf;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Which permission each request needs on the queue it names (its first argument), checked before the request is
 * queued for a worker:
 *
 * <table>
 * <tr><th>permission</th><th>requests</th></tr>
 * <tr><td>produce</td><td>APPEND, APPEND_ENCODED, ENQUEUE, ENQUEUE_TRANSIENT; appends and enqueues inside TX_COMMIT and TX_PREPARE;
 * BODY_OPEN (the queue a task naming the body will be sent to)</td></tr>
 * <tr><td>consume</td><td>READ_ONE, READ, POLL, START_OFFSET, END_OFFSET, OFFSET_FOR_TIMESTAMP, GROUP_*, DELETE_GROUP,
 * DELETE_GROUP_UNLESS_CLAIMED,
 * SHARED_*, DEQUEUE, TASK_ACK, TASK_NACK, TASK_EXTEND, TASK_RETURN_UNDELIVERED, BROWSE, STREAM_TASKS,
 * STREAM_SHARED, BODY_READ; acks, nacks and offset
 * commits inside transactions</td></tr>
 * <tr><td>manage</td><td>CREATE_LOG, CREATE_TASK_QUEUE, DELETE_LOG, DELETE_TASK_QUEUE, PURGE, COMPACT,
 * APPLY_RETENTION; GET_OR_CREATE_* of a queue that does not exist yet</td></tr>
 * <tr><td>any of the three</td><td>GET_LOG, GET_TASK_QUEUE, GET_OR_CREATE_* of an existing queue, LOG_STATS,
 * TASK_STATS, TASK_COUNTS, GROUPS</td></tr>
 * <tr><td>the branch's owner, or manage on every queue it names</td><td>COMMIT_PREPARED, ROLLBACK_PREPARED; and
 * PREPARED_TRANSACTIONS, IN_DOUBT_TRANSACTIONS answer only such branches. A branch the user may not decide is
 * answered as if it did not exist (TRANSACTION_NOT_FOUND, not ACCESS_DENIED), so nobody learns which xids other
 * users have in doubt (see {@link #checkDecide})</td></tr>
 * <tr><td>none (any authenticated user)</td><td>LIST (answers only the queues the user has a permission on), STATS,
 * RECOVERY_REPORT, FLUSH, RELEASE_CLAIM, CLAIM_HOLDERS (names, not queues), STREAM_CLOSE (a stream is the
 * connection's own; opening it was checked), BODY_CHUNK, BODY_PUBLISH, BODY_CLOSE (an upload is the connection's
 * own; BODY_OPEN was checked)</td></tr>
 * <tr><td>a client ID the user may use</td><td>CLAIM of a JMS client ID or subscription (see {@link ClaimRules});
 * other claims: any authenticated user</td></tr>
 * </table>
 *
 * A branch's owner is the user whose connection sent its TX_PREPARE (the broker ignores what the client says);
 * its operations were authorized then.
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
            case LIST, STATS, RECOVERY_REPORT, FLUSH, PREPARED_TRANSACTIONS, IN_DOUBT_TRANSACTIONS, COMMIT_PREPARED,
                 ROLLBACK_PREPARED, TX_COMMIT, TX_PREPARE, CLAIM, RELEASE_CLAIM, CLAIM_HOLDERS, STREAM_CLOSE,
                 BODY_CHUNK, BODY_PUBLISH, BODY_CLOSE -> {
                // store-wide, or checked once decoded (transactions: checkTransaction; branches: checkDecide)
            }
            case GET_LOG, GET_TASK_QUEUE, GET_OR_CREATE_LOG, GET_OR_CREATE_TASK_QUEUE, LOG_STATS, TASK_STATS,
                 TASK_COUNTS, GROUPS -> principal.checkAny(queue(args));
            case CREATE_LOG, CREATE_TASK_QUEUE, DELETE_LOG, DELETE_TASK_QUEUE, PURGE, COMPACT, APPLY_RETENTION ->
                    principal.check(Permission.MANAGE, queue(args));
            case APPEND, APPEND_ENCODED, ENQUEUE, ENQUEUE_TRANSIENT -> principal.check(Permission.PRODUCE, queue(args));
            case BODY_OPEN -> principal.check(Permission.PRODUCE, queue(args));
            default -> principal.check(Permission.CONSUME, queue(args));
        }
    }

    /** Every operation of a transaction, before any is carried out. */
    static void checkTransaction(List<TransactionOp> ops, Principal principal) {
        for (TransactionOp o : ops) {
            principal.check(o.produces() ? Permission.PRODUCE : Permission.CONSUME, o.queue());
        }
    }

    /**
     * Whether the principal may see and decide a prepared branch: it prepared it, or it may manage every queue the
     * branch names (a branch that names none only its owner may decide).
     */
    static boolean mayDecide(PreparedTransaction branch, Principal principal) {
        if (principal.unrestricted() || (branch.owner() != null && branch.owner().equals(principal.name()))) {
            return true;
        }
        if (branch.queues().isEmpty()) {
            return false;
        }
        for (String queue : branch.queues()) {
            if (!principal.may(Permission.MANAGE, queue)) {
                return false;
            }
        }
        return true;
    }

    /** The branches the principal may see and decide. */
    static List<PreparedTransaction> decidable(List<PreparedTransaction> inDoubt, Principal principal) {
        return principal.unrestricted() ? inDoubt : inDoubt.stream().filter(b -> mayDecide(b, principal)).toList();
    }

    /**
     * Before a COMMIT_PREPARED or ROLLBACK_PREPARED: someone else's branch fails as an unknown xid does, with the
     * engine's own message, so the answer does not tell whether the xid exists.
     *
     * @throws TransactionNotFoundException unless {@code xid} is in doubt and the principal may decide it
     */
    static void checkDecide(byte[] xid, Mikyu store, Principal principal) {
        java.util.Objects.requireNonNull(xid, "xid");
        if (principal.unrestricted()) {
            return; // the engine answers an unknown xid itself
        }
        for (PreparedTransaction branch : store.inDoubtTransactions()) {
            if (Arrays.equals(branch.xid(), xid)) {
                if (mayDecide(branch, principal)) {
                    return;
                }
                break;
            }
        }
        throw new TransactionNotFoundException("no transaction is prepared as xid " + HexFormat.of().formatHex(xid));
    }

    private static String queue(ByteBuf args) {
        String name = Fields.readString(args);
        return name == null ? "" : name;
    }
}
