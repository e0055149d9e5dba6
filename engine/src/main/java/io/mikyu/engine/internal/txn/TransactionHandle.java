package io.mikyu.engine.internal.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Task;
import io.mikyu.engine.Transaction;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The {@link Transaction} callers hold: buffers operations until commit or prepare. */
public final class TransactionHandle implements Transaction {

    private final TransactionManager manager;
    private final List<TxOp> ops = new ArrayList<>();
    private boolean finished;

    public TransactionHandle(TransactionManager manager) {
        this.manager = manager;
    }

    private Transaction add(TxOp op) {
        if (finished) {
            throw new IllegalStateException("the transaction is already committed, rolled back or prepared");
        }
        ops.add(op);
        return this;
    }

    @Override
    public Transaction append(String logQueue, Entry entry) {
        return add(new TxOp.Append(Objects.requireNonNull(logQueue), Objects.requireNonNull(entry)));
    }

    @Override
    public Transaction enqueue(String taskQueue, Task task) {
        return add(new TxOp.Enqueue(Objects.requireNonNull(taskQueue), Objects.requireNonNull(task)));
    }

    @Override
    public Transaction ack(String taskQueue, LeaseToken token) {
        return add(new TxOp.Settle(Objects.requireNonNull(taskQueue), Objects.requireNonNull(token), false, -1,
                null));
    }

    @Override
    public Transaction nack(String taskQueue, LeaseToken token, Duration delay, String reason) {
        return add(new TxOp.Settle(Objects.requireNonNull(taskQueue), Objects.requireNonNull(token), true,
                delay == null ? -1 : delay.toMillis(), reason));
    }

    @Override
    public Transaction ackShared(String logQueue, String group, LeaseToken token) {
        return add(new TxOp.SettleShared(Objects.requireNonNull(logQueue), Objects.requireNonNull(group),
                Objects.requireNonNull(token), false, -1, null));
    }

    @Override
    public Transaction nackShared(String logQueue, String group, LeaseToken token, Duration delay, String reason) {
        return add(new TxOp.SettleShared(Objects.requireNonNull(logQueue), Objects.requireNonNull(group),
                Objects.requireNonNull(token), true, delay == null ? -1 : delay.toMillis(), reason));
    }

    @Override
    public Transaction commitOffset(String logQueue, String group, long nextOffset) {
        return add(new TxOp.CommitOffset(Objects.requireNonNull(logQueue), Objects.requireNonNull(group),
                nextOffset));
    }

    @Override
    public int size() {
        return ops.size();
    }

    @Override
    public void commit() {
        finish();
        manager.commit(ops);
    }

    @Override
    public void rollback() {
        finish();
        ops.clear();
    }

    @Override
    public void prepare(byte[] xid, String owner) {
        Objects.requireNonNull(xid, "xid");
        finish();
        manager.prepare(xid, owner, ops);
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
