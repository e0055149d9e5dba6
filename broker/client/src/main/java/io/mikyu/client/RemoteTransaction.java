package io.mikyu.client;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Task;
import io.mikyu.engine.spi.BufferedTransaction;
import io.mikyu.protocol.TransactionOp;

import java.time.Duration;
import java.util.List;

/**
 * A transaction against a broker, collected here and sent whole by {@link #commit()} or
 * {@link #prepare(byte[], String)}: the engine's transactions write nothing before then either, so one round trip
 * does the same work, and a client that dies mid-transaction leaves nothing open on the broker. A commit sent before
 * the connection broke either took effect as a whole or not at all.
 */
final class RemoteTransaction extends BufferedTransaction<TransactionOp> {

    private final RemoteMikyu store;

    RemoteTransaction(RemoteMikyu store) {
        this.store = store;
    }

    @Override
    protected TransactionOp appendOp(String logQueue, Entry entry) {
        return new TransactionOp.Append(logQueue, entry);
    }

    @Override
    protected TransactionOp enqueueOp(String taskQueue, Task task) {
        return new TransactionOp.Enqueue(taskQueue, task);
    }

    @Override
    protected TransactionOp settleOp(String taskQueue, LeaseToken token, boolean nack, Duration delay,
                                     String reason) {
        return new TransactionOp.Settle(taskQueue, token, nack, delay, reason);
    }

    @Override
    protected TransactionOp settleSharedOp(String logQueue, String group, LeaseToken token, boolean nack,
                                           Duration delay, String reason) {
        return new TransactionOp.SettleShared(logQueue, group, token, nack, delay, reason);
    }

    @Override
    protected TransactionOp commitOffsetOp(String logQueue, String group, long nextOffset) {
        return new TransactionOp.CommitOffset(logQueue, group, nextOffset);
    }

    @Override
    protected void commitOps(List<TransactionOp> ops) {
        store.commit(ops);
    }

    /** {@code owner} is not sent: the broker records the connection's authenticated user as the owner. */
    @Override
    protected void prepareOps(byte[] xid, String owner, List<TransactionOp> ops) {
        store.prepare(xid, ops);
    }
}
