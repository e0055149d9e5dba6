package io.mikyu.broker.server;

import io.mikyu.engine.LeaseToken;
import io.mikyu.protocol.Op;
import io.netty.buffer.ByteBuf;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Turns a request frame into the engine call it asks for ({@link Request}), by the family of its op. Decoding
 * happens on the event loop, so that a malformed frame is refused before any work is queued; the call itself runs
 * on a worker thread. Each case reads every argument first (the frame is released after decoding) and then returns
 * the call, which writes its result into the {@link Reply}. The layouts are those of {@code docs/protocol.md}.
 */
final class Requests {

    private Requests() {
    }

    static Request decode(Op op, ByteBuf in, ConnectionState state) {
        return switch (op) {
            case CREATE_LOG, GET_OR_CREATE_LOG, GET_LOG, DELETE_LOG, CREATE_TASK_QUEUE, GET_OR_CREATE_TASK_QUEUE,
                 GET_TASK_QUEUE, DELETE_TASK_QUEUE, LIST, STATS, RECOVERY_REPORT, FLUSH, CLAIM, RELEASE_CLAIM,
                 CLAIM_HOLDERS, DELETE_GROUP_UNLESS_CLAIMED ->
                    StoreRequests.decode(op, in, state);
            case TX_COMMIT, TX_PREPARE, PREPARED_TRANSACTIONS, IN_DOUBT_TRANSACTIONS, COMMIT_PREPARED,
                 ROLLBACK_PREPARED ->
                    TransactionRequests.decode(op, in, state);
            case APPEND, APPEND_ENCODED, READ_ONE, READ, POLL, POLL_ENCODED, START_OFFSET, END_OFFSET,
                 OFFSET_FOR_TIMESTAMP, GROUPS, DELETE_GROUP, APPLY_RETENTION, COMPACT, LOG_STATS, GROUP_OPEN,
                 GROUP_POSITION, GROUP_HAS_COMMITTED, GROUP_COMMIT, GROUP_RESET, GROUP_POLL, GROUP_LAG ->
                    LogRequests.decode(op, in, state);
            case SHARED_OPEN, SHARED_FETCH, SHARED_ACK, SHARED_ACK_DURABLE, SHARED_NACK, SHARED_RETURN_UNDELIVERED,
                 SHARED_EXTEND, SHARED_COMMITTED, SHARED_COUNTS, SHARED_LAG ->
                    SharedGroupRequests.decode(op, in, state);
            case ENQUEUE, ENQUEUE_TRANSIENT, DEQUEUE, TASK_ACK, TASK_ACK_DURABLE, TASK_NACK, TASK_RETURN_UNDELIVERED, TASK_EXTEND,
                 BROWSE, PURGE, TASK_COUNTS, TASK_STATS ->
                    TaskRequests.decode(op, in, state);
            case STREAM_TASKS, STREAM_SHARED, STREAM_CLOSE ->
                    StreamRequests.decode(op, in, state);
            case BODY_OPEN, BODY_CHUNK, BODY_PUBLISH, BODY_CLOSE, BODY_READ ->
                    BodyRequests.decode(op, in, state);
        };
    }

    /**
     * What a dequeue or fetch leased beyond the bytes one answer carries ({@link Reply#maxResultBytes()}) goes back
     * at once, not counted as an attempt: an answer never holds more than that in broker memory, whatever
     * {@code max} asked for, and the client asks again.
     */
    static <T> void giveBackUnsent(List<T> unsent, Function<T, LeaseToken> token,
                                   Consumer<List<LeaseToken>> giveBack) {
        if (!unsent.isEmpty()) {
            giveBack.accept(unsent.stream().map(token).toList());
        }
    }
}
