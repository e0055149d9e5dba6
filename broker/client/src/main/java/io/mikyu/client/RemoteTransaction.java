package io.mikyu.client;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Task;
import io.mikyu.engine.Transaction;
import io.mikyu.protocol.TransactionOp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A transaction against a broker, collected here and sent whole by {@link #commit()} or {@link #prepare(byte[], String)}:
 * the engine's transactions write nothing before then either, so one round trip does the same work, and a
 * client that dies mid-transaction leaves nothing open on the broker. A commit sent before the connection broke
 * either took effect as a whole or not at all.
 */
final class RemoteTransaction implements Transaction {

    private final RemoteMikyu store;
    private final List<TransactionOp> ops = new ArrayList<>();
    private boolean finished;

    RemoteTransaction(RemoteMikyu store) {
        this.store = store;
    }

    private Transaction add(TransactionOp op) {
        if (finished) {
            throw new IllegalStateException("the transaction is already committed, rolled back or prepared");
        }
        ops.add(op);
        return this;
    }

    @Override
    public Transaction append(String logQueue, Entry entry) {
        return add(new TransactionOp.Append(Objects.requireNonNull(logQueue), Objects.requireNonNull(entry)));
    }

    @Override
    public Transaction enqueue(String taskQueue, Task task) {
        return add(new TransactionOp.Enqueue(Objects.requireNonNull(taskQueue), Objects.requireNonNull(task)));
    }

    @Override
    public Transaction ack(String taskQueue, LeaseToken token) {
        return add(new TransactionOp.Settle(Objects.requireNonNull(taskQueue), Objects.requireNonNull(token), false,
                null, null));
    }

    @Override
    public Transaction nack(String taskQueue, LeaseToken token, Duration delay, String reason) {
        return add(new TransactionOp.Settle(Objects.requireNonNull(taskQueue), Objects.requireNonNull(token), true,
                delay, reason));
    }

    @Override
    public Transaction ackShared(String logQueue, String group, LeaseToken token) {
        return add(new TransactionOp.SettleShared(Objects.requireNonNull(logQueue), Objects.requireNonNull(group),
                Objects.requireNonNull(token), false, null, null));
    }

    @Override
    public Transaction nackShared(String logQueue, String group, LeaseToken token, Duration delay, String reason) {
        return add(new TransactionOp.SettleShared(Objects.requireNonNull(logQueue), Objects.requireNonNull(group),
                Objects.requireNonNull(token), true, delay, reason));
    }

    @Override
    public Transaction commitOffset(String logQueue, String group, long nextOffset) {
        return add(new TransactionOp.CommitOffset(Objects.requireNonNull(logQueue), Objects.requireNonNull(group),
                nextOffset));
    }

    @Override
    public int size() {
        return ops.size();
    }

    @Override
    public void commit() {
        finish();
        store.commit(ops);
    }

    @Override
    public void rollback() {
        finish();
        ops.clear();
    }

    /** {@code owner} is not sent: the broker records the connection's authenticated user as the owner. */
    @Override
    public void prepare(byte[] xid, String owner) {
        Objects.requireNonNull(xid, "xid");
        finish();
        store.prepare(xid, ops);
    }

    @Override
    public void close() {
        if (!finished) {
            rollback();
        }
    }

    private void finish() {
        if (finished) {
            throw new IllegalStateException("the transaction is already committed, rolled back or prepared");
        }
        finished = true;
    }
}
