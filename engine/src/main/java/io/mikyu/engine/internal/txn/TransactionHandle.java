package io.mikyu.engine.internal.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Task;
import io.mikyu.engine.spi.BufferedTransaction;

import java.time.Duration;
import java.util.List;

/** The {@link io.mikyu.engine.Transaction} callers hold: buffers operations until commit or prepare. */
public final class TransactionHandle extends BufferedTransaction<TxOp> {

    private final TransactionManager manager;

    public TransactionHandle(TransactionManager manager) {
        this.manager = manager;
    }

    @Override
    protected TxOp appendOp(String logQueue, Entry entry) {
        return new TxOp.Append(logQueue, entry);
    }

    @Override
    protected TxOp enqueueOp(String taskQueue, Task task) {
        return new TxOp.Enqueue(taskQueue, task);
    }

    /** No delay is {@code -1} in the store's record. */
    @Override
    protected TxOp settleOp(String taskQueue, LeaseToken token, boolean nack, Duration delay, String reason) {
        return new TxOp.Settle(taskQueue, token, nack, delay == null ? -1 : delay.toMillis(), reason);
    }

    @Override
    protected TxOp settleSharedOp(String logQueue, String group, LeaseToken token, boolean nack, Duration delay,
                                  String reason) {
        return new TxOp.SettleShared(logQueue, group, token, nack, delay == null ? -1 : delay.toMillis(), reason);
    }

    @Override
    protected TxOp commitOffsetOp(String logQueue, String group, long nextOffset) {
        return new TxOp.CommitOffset(logQueue, group, nextOffset);
    }

    @Override
    protected void commitOps(List<TxOp> ops) {
        manager.commit(ops);
    }

    @Override
    protected io.mikyu.engine.PreparedAhead prepareAheadOps(byte[] xid, String owner, List<TxOp> ops) {
        return manager.prepareAhead(xid, owner, ops);
    }

    @Override
    protected void prepareOps(byte[] xid, String owner, List<TxOp> ops) {
        manager.prepare(xid, owner, ops);
    }
}
