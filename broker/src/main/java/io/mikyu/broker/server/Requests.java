package io.mikyu.broker.server;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.Durability;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.engine.Entry;
import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.Record;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.security.Permission;
import io.mikyu.engine.security.Principal;
import io.mikyu.engine.spi.AsyncWrites;
import io.mikyu.protocol.Fields;
import io.mikyu.protocol.Op;
import io.mikyu.protocol.StreamDescriptor;
import io.mikyu.protocol.TransactionOp;
import io.mikyu.protocol.Values;
import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;

import static io.mikyu.protocol.Fields.readBool;
import static io.mikyu.protocol.Fields.readInt;
import static io.mikyu.protocol.Fields.readLong;
import static io.mikyu.protocol.Fields.readMillis;
import static io.mikyu.protocol.Fields.readString;

/**
 * Turns a request frame into the engine call it asks for. Decoding happens on the event loop, so that a malformed
 * frame is refused before any work is queued; the call itself runs on a worker thread. Each case reads every
 * argument first (the frame is released after decoding) and then returns the call, which writes its result
 * into the {@link Reply}. The layouts are those of {@code docs/protocol.md}.
 */
final class Requests {

    /** A decoded request. {@code waits}: it may block for a while (a long poll) and runs on the waiting pool. */
    /**
     * A write the broker may start on the event loop and answer from its completion ({@link AsyncWrites}), so it
     * crosses no worker; {@code false} if it cannot be started that way, and {@link Request#call} runs on a worker.
     */
    interface AsyncCall {
        boolean start(Executor continuation, AsyncWrites.Completion done);
    }

    /**
     * An enqueue to a task queue: it may be paced (held back to the queue's consumers), and the connection's later
     * enqueues then wait behind it, so that a producer's enqueues keep their order.
     */
    interface EnqueueCall extends AsyncCall {
    }

    /**
     * Encoded appends up to this size start on the event loop (see APPEND_ENCODED): checking a batch there costs
     * less than the two thread hand-offs of a worker (measured: a 64 KiB batch takes a third less broker CPU per
     * byte), and the writer writes it from the received frame without a copy.
     */
    static final int ASYNC_APPEND_MAX_BYTES = 1 << 20;

    /**
     * A long poll's answer without waiting, tried on the event loop before the poll goes to the waiting pool: when
     * there is something to answer at once (a tailing reader usually finds what arrived since its last poll), that
     * saves the two thread hand-offs. Writes into the reply and returns {@code true} if it answered; {@code false}
     * (the reply untouched) if there is nothing yet.
     */
    interface InlineCall {
        boolean answer(Reply reply) throws Exception;
    }

    record Request(EngineCall call, boolean waits, AsyncCall async, InlineCall inline) {
        Request(EngineCall call, boolean waits) {
            this(call, waits, null, null);
        }

        Request(EngineCall call, boolean waits, AsyncCall async) {
            this(call, waits, async, null);
        }
    }

    /** The work of one request, on a worker thread. */
    @FunctionalInterface
    interface EngineCall {
        void run(Reply reply) throws Exception;
    }

    private Requests() {
    }

    /**
     * Starts an encoded append on the event loop. The batch was copied out of the request frame (the engine keeps
     * that copy in its cache of recent batches); the writer writes the frame's own direct bytes, retained until
     * the append completes, instead of copying the batch into direct memory itself. Runs within the dispatch of
     * {@code frame}, so the frame is still held.
     */
    private static boolean appendAsync(AsyncWrites queue, EncodedBatch batch, ByteBuf frame, int at,
                                       Durability durability, Executor loop, AsyncWrites.Completion done) {
        if (!frame.isDirect() || frame.nioBufferCount() != 1) {
            return queue.tryAppendEncodedAsync(batch, durability, loop, done);
        }
        ByteBuf held = frame.retainedSlice(at, batch.size());
        boolean started = false;
        try {
            started = queue.tryAppendEncodedAsync(EncodedBatch.wrap(batch.bytes(), held.nioBuffer()), durability,
                    loop, new AsyncWrites.Completion() {
                        @Override
                        public void completed(long value) {
                            held.release();
                            done.completed(value);
                        }

                        @Override
                        public void failed(RuntimeException failure) {
                            held.release();
                            done.failed(failure);
                        }
                    });
            return started;
        } finally {
            if (!started) {
                held.release();
            }
        }
    }

    static Request decode(Op op, ByteBuf in, Session session) {
        Mikyu m = session.mikyu();
        return switch (op) {
            case CREATE_LOG -> {
                String name = readString(in);
                LogQueueConfig config = readBool(in) ? Values.readLogConfig(in) : null;
                yield now(r -> Values.writeLogConfig(r.body(),
                        (config == null ? m.createLog(name) : m.createLog(name, config)).config()));
            }
            case GET_OR_CREATE_LOG -> {
                String name = readString(in);
                LogQueueConfig config = readBool(in) ? Values.readLogConfig(in) : null;
                yield now(r -> {
                    mayCreate(session, QueueKind.LOG, name);
                    Values.writeLogConfig(r.body(), m.getOrCreateLog(name, config).config());
                });
            }
            case GET_LOG -> {
                String name = readString(in);
                readBool(in);
                yield now(r -> Values.writeLogConfig(r.body(), m.log(name).config()));
            }
            case DELETE_LOG -> {
                String name = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.deleteLog(name)));
            }
            case CREATE_TASK_QUEUE -> {
                String name = readString(in);
                TaskQueueConfig config = readBool(in) ? Values.readTaskConfig(in) : null;
                yield now(r -> Values.writeTaskConfig(r.body(),
                        (config == null ? m.createTaskQueue(name) : m.createTaskQueue(name, config)).config()));
            }
            case GET_OR_CREATE_TASK_QUEUE -> {
                String name = readString(in);
                TaskQueueConfig config = readBool(in) ? Values.readTaskConfig(in) : null;
                yield now(r -> {
                    mayCreate(session, QueueKind.TASK, name);
                    Values.writeTaskConfig(r.body(), m.getOrCreateTaskQueue(name, config).config());
                });
            }
            case GET_TASK_QUEUE -> {
                String name = readString(in);
                readBool(in);
                yield now(r -> Values.writeTaskConfig(r.body(), m.taskQueue(name).config()));
            }
            case DELETE_TASK_QUEUE -> {
                String name = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.deleteTaskQueue(name)));
            }
            case LIST -> {
                QueueKind kind = Values.readKind(in);
                Principal who = session.principal();
                yield now(r -> r.list(who.unrestricted() ? m.list(kind)
                        : m.list(kind).stream().filter(who::mayAny).toList(), Fields::writeString));
            }
            case STATS -> now(r -> Values.writeEngineStats(r.body(), m.stats()));
            case RECOVERY_REPORT -> now(r -> Values.writeRecoveryReport(r.body(), m.recoveryReport()));
            case FLUSH -> now(r -> m.flush());
            case CLAIM -> {
                String name = readString(in);
                ClaimMode mode = Values.readClaimMode(in);
                ClaimRules.check(name, mode, session.principal());
                yield now(r -> session.claimed(m.claim(name, mode)));
            }
            case RELEASE_CLAIM -> {
                String name = readString(in);
                ClaimMode mode = Values.readClaimMode(in);
                yield now(r -> r.body().writeInt(session.release(name, mode)));
            }
            case CLAIM_HOLDERS -> {
                String name = readString(in);
                yield now(r -> r.body().writeInt(m.claimHolders(name)));
            }
            case DELETE_GROUP_UNLESS_CLAIMED -> {
                String queue = readString(in);
                String group = readString(in);
                String claim = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.deleteGroupUnlessClaimed(queue, group, claim)));
            }

            case TX_COMMIT -> {
                List<TransactionOp> ops = ClientClock.boundAppends(TransactionOp.readAll(in));
                Authorization.checkTransaction(ops, session.principal());
                yield now(r -> {
                    try (Transaction tx = m.beginTransaction()) {
                        ops.forEach(o -> o.addTo(tx));
                        tx.commit();
                    }
                });
            }
            case TX_PREPARE -> {
                byte[] xid = Fields.readBytes(in);
                List<TransactionOp> ops = ClientClock.boundAppends(TransactionOp.readAll(in));
                Principal who = session.principal();
                Authorization.checkTransaction(ops, who);
                yield now(r -> {
                    try (Transaction tx = m.beginTransaction()) {
                        ops.forEach(o -> o.addTo(tx));
                        tx.prepare(xid, who.name()); // the authenticated user owns it, whatever the client says
                    }
                });
            }
            case PREPARED_TRANSACTIONS -> {
                Principal who = session.principal();
                yield now(r -> r.list(who.unrestricted() ? m.preparedTransactions()
                        : Authorization.decidable(m.inDoubtTransactions(), who).stream()
                                .map(PreparedTransaction::xid).toList(), Fields::writeBytes));
            }
            case IN_DOUBT_TRANSACTIONS -> {
                Principal who = session.principal();
                yield now(r -> r.list(Authorization.decidable(m.inDoubtTransactions(), who),
                        Values::writePreparedTransaction));
            }
            case COMMIT_PREPARED -> {
                byte[] xid = Fields.readBytes(in);
                Principal who = session.principal();
                yield now(r -> {
                    Authorization.checkDecide(xid, m, who);
                    m.commitPrepared(xid);
                });
            }
            case ROLLBACK_PREPARED -> {
                byte[] xid = Fields.readBytes(in);
                Principal who = session.principal();
                yield now(r -> {
                    Authorization.checkDecide(xid, m, who);
                    m.rollbackPrepared(xid);
                });
            }

            case APPEND -> {
                String queue = readString(in);
                Durability durability = Values.readDurability(in);
                List<Entry> entries = ClientClock.bound(Values.readEntries(in));
                yield now(r -> r.body().writeLong(m.log(queue).appendBatch(entries, durability)));
            }
            case APPEND_ENCODED -> {
                String queue = readString(in);
                Durability durability = Values.readDurability(in);
                int at = in.readerIndex() + 4;
                EncodedBatch batch = EncodedBatch.wrap(Fields.readRequiredBytes(in, "batch"));
                yield new Request(r -> r.body().writeLong(m.log(queue).appendEncoded(batch, durability)), false,
                        (loop, done) -> batch.size() <= ASYNC_APPEND_MAX_BYTES && m.log(queue) instanceof AsyncWrites a
                                && appendAsync(a, batch, in, at, durability, loop, done));
            }
            case READ_ONE -> {
                String queue = readString(in);
                long offset = readLong(in);
                yield now(r -> {
                    Record record = m.log(queue).read(offset);
                    Fields.writeBool(r.body(), record != null);
                    if (record != null) {
                        Values.writeRecord(r.body(), record);
                    }
                });
            }
            case READ -> {
                String queue = readString(in);
                long from = readLong(in);
                int max = readInt(in);
                long maxBytes = readLong(in);
                yield now(r -> r.list(m.log(queue).read(from, max, Math.min(maxBytes, r.maxResultBytes())),
                        Values::writeRecord));
            }
            case POLL -> {
                String queue = readString(in);
                long from = readLong(in);
                int max = readInt(in);
                long maxBytes = readLong(in);
                Duration wait = readMillis(in);
                yield waiting(wait, r -> r.list(m.log(queue).poll(from, max, Math.min(maxBytes, r.maxResultBytes()),
                        wait), Values::writeRecord));
            }
            case POLL_ENCODED -> {
                String queue = readString(in);
                long from = readLong(in);
                long maxBytes = readLong(in);
                Duration wait = readMillis(in);
                Request poll = waiting(wait, r -> pollEncoded(r, m.log(queue), from, maxBytes, wait));
                yield !poll.waits() ? poll : new Request(poll.call(), true, null, r -> {
                    LogQueue log = m.log(queue);
                    long end = log.endOffset();
                    // Copying a few MiB out of the cache is quick; reading a segment far behind is not for the loop.
                    return from < end && from >= end - INLINE_POLL_MAX_BEHIND
                            && pollEncoded(r, log, from, maxBytes, Duration.ZERO) > 0;
                });
            }
            case START_OFFSET -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).startOffset()));
            }
            case END_OFFSET -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).endOffset()));
            }
            case OFFSET_FOR_TIMESTAMP -> {
                String queue = readString(in);
                long timestamp = readLong(in);
                yield now(r -> r.body().writeLong(m.log(queue).offsetForTimestamp(timestamp)));
            }
            case GROUPS -> {
                String queue = readString(in);
                yield now(r -> r.list(m.log(queue).groups(), Fields::writeString));
            }
            case DELETE_GROUP -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.log(queue).deleteGroup(group)));
            }
            case APPLY_RETENTION -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).applyRetention()));
            }
            case COMPACT -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).compact()));
            }
            case LOG_STATS -> {
                String queue = readString(in);
                yield now(r -> Values.writeQueueStats(r.body(), m.log(queue).stats()));
            }

            case GROUP_OPEN -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> m.log(queue).group(group));
            }
            case GROUP_POSITION -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).group(group).position()));
            }
            case GROUP_HAS_COMMITTED -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> Fields.writeBool(r.body(), m.log(queue).group(group).hasCommitted()));
            }
            case GROUP_COMMIT -> {
                String queue = readString(in);
                String group = readString(in);
                long next = readLong(in);
                yield now(r -> m.log(queue).group(group).commit(next));
            }
            case GROUP_RESET -> {
                String queue = readString(in);
                String group = readString(in);
                OffsetReset reset = Values.readOffsetReset(in);
                yield now(r -> r.body().writeLong(m.log(queue).group(group).reset(reset)));
            }
            case GROUP_POLL -> {
                String queue = readString(in);
                String group = readString(in);
                int max = readInt(in);
                Duration wait = readMillis(in);
                // ConsumerGroup.poll is LogQueue.poll from the group's position; through the queue, to bound its bytes.
                yield waiting(wait, r -> {
                    LogQueue log = m.log(queue);
                    long position = log.group(group).position();
                    r.list(log.poll(position, max, r.maxResultBytes(), wait), Values::writeRecord);
                });
            }
            case GROUP_LAG -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> r.body().writeLong(m.log(queue).group(group).lag()));
            }

            case SHARED_OPEN -> {
                String queue = readString(in);
                String group = readString(in);
                SharedGroupConfig config = Values.readSharedConfig(in);
                FilterExpression filter = Values.readFilter(in);
                OffsetReset startIfNew = Values.readOffsetReset(in);
                yield now(r -> {
                    LogQueue log = m.log(queue);
                    SharedGroup g = log.sharedGroup(group, config, session.filter(filter), startIfNew);
                    session.opened(queue, group, g);
                    Values.writeSharedConfig(r.body(), g.config());
                });
            }
            case SHARED_FETCH -> {
                String queue = readString(in);
                String group = readString(in);
                int max = readInt(in);
                Duration lease = readMillis(in);
                Duration wait = readMillis(in);
                yield waiting(wait, r -> {
                    SharedGroup g = session.sharedGroup(queue, group);
                    List<SharedGroup.Delivery> deliveries = g.fetch(max, lease, wait);
                    int sent = r.listUpTo(deliveries, Values::writeDelivery, r.maxResultBytes());
                    giveBackUnsent(deliveries.subList(sent, deliveries.size()), SharedGroup.Delivery::token,
                            g::returnUndelivered);
                });
            }
            case SHARED_ACK -> {
                String queue = readString(in);
                String group = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                yield now(r -> {
                    SharedGroup g = session.sharedGroup(queue, group);
                    if (tokens.size() == 1) {
                        g.ack(tokens.get(0));
                    } else {
                        g.ack(tokens);
                    }
                });
            }
            case SHARED_ACK_DURABLE -> {
                String queue = readString(in);
                String group = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                Durability durability = Values.readDurability(in);
                yield now(r -> session.sharedGroup(queue, group).ack(tokens, durability));
            }
            case SHARED_NACK -> {
                String queue = readString(in);
                String group = readString(in);
                LeaseToken token = Values.readToken(in);
                Duration delay = readMillis(in);
                String reason = readString(in);
                yield now(r -> session.sharedGroup(queue, group).nack(token, delay, reason));
            }
            case SHARED_RETURN_UNDELIVERED -> {
                String queue = readString(in);
                String group = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                yield now(r -> session.sharedGroup(queue, group).returnUndelivered(tokens));
            }
            case SHARED_EXTEND -> {
                String queue = readString(in);
                String group = readString(in);
                LeaseToken token = Values.readToken(in);
                Duration lease = readMillis(in);
                yield now(r -> r.body().writeLong(session.sharedGroup(queue, group).extend(token, lease)));
            }
            case SHARED_COMMITTED -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> r.body().writeLong(session.sharedGroup(queue, group).committedOffset()));
            }
            case SHARED_COUNTS -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> Values.writeCounts(r.body(), session.sharedGroup(queue, group).counts()));
            }
            case SHARED_LAG -> {
                String queue = readString(in);
                String group = readString(in);
                yield now(r -> r.body().writeLong(session.sharedGroup(queue, group).lag()));
            }

            case ENQUEUE -> {
                String queue = readString(in);
                Durability durability = Values.readDurability(in);
                List<Task> tasks = Values.readTasks(in);
                yield new Request(r -> r.body().writeLong(m.taskQueue(queue).enqueueBatch(tasks, durability)), false,
                        (EnqueueCall) (loop, done) -> m.taskQueue(queue) instanceof AsyncWrites a
                                && a.tryEnqueueAsync(tasks, durability, loop, done));
            }
            case DEQUEUE -> {
                String queue = readString(in);
                int max = readInt(in);
                Duration lease = readMillis(in);
                Duration wait = readMillis(in);
                FilterExpression filter = Values.readFilter(in);
                yield waiting(wait, r -> {
                    TaskQueue q = m.taskQueue(queue);
                    List<LeasedTask> tasks = q.dequeue(max, lease, wait, session.filter(filter));
                    int sent = r.listUpTo(tasks, Values::writeLeasedTask, r.maxResultBytes());
                    giveBackUnsent(tasks.subList(sent, tasks.size()), LeasedTask::token, q::returnUndelivered);
                });
            }
            case TASK_ACK -> {
                String queue = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                yield now(r -> {
                    if (tokens.size() == 1) {
                        m.taskQueue(queue).ack(tokens.get(0));
                    } else {
                        m.taskQueue(queue).ack(tokens);
                    }
                });
            }
            case TASK_ACK_DURABLE -> {
                String queue = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                Durability durability = Values.readDurability(in);
                yield now(r -> m.taskQueue(queue).ack(tokens, durability));
            }
            case TASK_NACK -> {
                String queue = readString(in);
                LeaseToken token = Values.readToken(in);
                Duration delay = readMillis(in);
                String reason = readString(in);
                yield now(r -> m.taskQueue(queue).nack(token, delay, reason));
            }
            case TASK_RETURN_UNDELIVERED -> {
                String queue = readString(in);
                List<LeaseToken> tokens = Values.readTokens(in);
                yield now(r -> m.taskQueue(queue).returnUndelivered(tokens));
            }
            case TASK_EXTEND -> {
                String queue = readString(in);
                LeaseToken token = Values.readToken(in);
                Duration lease = readMillis(in);
                yield now(r -> r.body().writeLong(m.taskQueue(queue).extend(token, lease)));
            }
            case BROWSE -> {
                String queue = readString(in);
                int max = readInt(in);
                FilterExpression filter = Values.readFilter(in);
                yield now(r -> r.list(m.taskQueue(queue).browse(max, session.filter(filter)),
                        Values::writeLeasedTask));
            }
            case PURGE -> {
                String queue = readString(in);
                yield now(r -> r.body().writeLong(m.taskQueue(queue).purge()));
            }
            case TASK_COUNTS -> {
                String queue = readString(in);
                yield now(r -> Values.writeCounts(r.body(), m.taskQueue(queue).counts()));
            }
            case TASK_STATS -> {
                String queue = readString(in);
                yield now(r -> Values.writeQueueStats(r.body(), m.taskQueue(queue).stats()));
            }

            case STREAM_TASKS -> {
                ConnectionStreams streams = session.streams();
                String queue = readString(in);
                int stream = StreamDescriptor.readStreamId(in);
                Duration lease = readMillis(in);
                FilterExpression filter = Values.readFilter(in);
                int credit = StreamDescriptor.readCredit(in);
                long creditBytes = StreamDescriptor.readCreditBytes(in);
                yield now(r -> {
                    streams.openTasks(stream, m.taskQueue(queue), lease, session.filter(filter), credit,
                            creditBytes);
                    r.afterSent(() -> streams.start(stream));
                });
            }
            case STREAM_SHARED -> {
                ConnectionStreams streams = session.streams();
                String queue = readString(in);
                String group = readString(in);
                int stream = StreamDescriptor.readStreamId(in);
                Duration lease = readMillis(in);
                int credit = StreamDescriptor.readCredit(in);
                long creditBytes = StreamDescriptor.readCreditBytes(in);
                yield now(r -> {
                    streams.openShared(stream, session.sharedGroup(queue, group), lease, credit, creditBytes);
                    r.afterSent(() -> streams.start(stream));
                });
            }
            case STREAM_CLOSE -> {
                ConnectionStreams streams = session.streams();
                int stream = StreamDescriptor.readStreamId(in);
                yield now(r -> streams.close(stream));
            }
        };
    }

    /**
     * What a dequeue or fetch leased beyond the bytes one answer carries ({@link Reply#maxResultBytes()}) goes back
     * at once, not counted as an attempt: an answer never holds more than that in broker memory, whatever
     * {@code max} asked for, and the client asks again.
     */
    private static <T> void giveBackUnsent(List<T> unsent, java.util.function.Function<T, LeaseToken> token,
                                           java.util.function.Consumer<List<LeaseToken>> giveBack) {
        if (!unsent.isEmpty()) {
            giveBack.accept(unsent.stream().map(token).toList());
        }
    }

    /** getOrCreate creates a missing queue: that takes the manage permission; using an existing one does not. */
    private static void mayCreate(Session session, QueueKind kind, String name) {
        Principal who = session.principal();
        if (!who.may(Permission.MANAGE, name) && !session.mikyu().list(kind).contains(name)) {
            throw new AccessDeniedException("user '" + who.name() + "' lacks the manage permission needed to"
                    + " create queue '" + name + "'");
        }
    }

    /** A tailing reader's poll is answered on the event loop if it is at most this many records behind. */
    static final long INLINE_POLL_MAX_BEHIND = 4096;

    /** POLL_ENCODED's answer; returns the number of items written. */
    private static int pollEncoded(Reply r, LogQueue log, long from, long maxBytes, Duration wait)
            throws InterruptedException {
        Reply.Items items = r.items();
        // Room for a batch in one frame beside the frame header, the count and the item's own header.
        int maxBatch = r.maxFrameBytes() - 64;
        EncodedItems out = new EncodedItems(items);
        log.pollEncoded(from, Math.min(maxBytes, r.maxResultBytes()), maxBatch, wait, out);
        items.end();
        return out.count();
    }

    private static Request now(EngineCall call) {
        return new Request(call, false);
    }

    private static Request waiting(Duration wait, EngineCall call) {
        return new Request(call, wait != null && wait.toMillis() > 0);
    }
}
