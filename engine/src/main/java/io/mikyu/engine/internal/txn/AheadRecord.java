package io.mikyu.engine.internal.txn;

import io.mikyu.engine.PreparedAhead;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A PREPARE record on its way to the transaction log ahead of phase one ({@link TransactionManager#prepareAhead}):
 * what the manager needs to confirm, commit or roll it back, and the write's outcome ({@code written}: the record's
 * offset, or the write's failure). Used once.
 */
final class AheadRecord implements PreparedAhead {

    final TransactionManager manager;
    final ByteBuffer key;
    /** The xid's placeholder in the manager's prepared map until the record is confirmed or dropped. */
    final PreparedBranches.Prepared reservation;
    final long txId;
    final byte[] xid;
    final String owner;
    final long preparedAt;
    final List<TxOp> ops;
    final Map<String, List<TxOp>> byTarget;
    final Map<String, Long> scanFrom;
    final CompletableFuture<Long> written = new CompletableFuture<>();
    private final AtomicBoolean used = new AtomicBoolean();

    AheadRecord(TransactionManager manager, ByteBuffer key, PreparedBranches.Prepared reservation, long txId,
                byte[] xid, String owner, long preparedAt, List<TxOp> ops, Map<String, List<TxOp>> byTarget,
                Map<String, Long> scanFrom) {
        this.manager = manager;
        this.key = key;
        this.reservation = reservation;
        this.txId = txId;
        this.xid = xid;
        this.owner = owner;
        this.preparedAt = preparedAt;
        this.ops = ops;
        this.byTarget = byTarget;
        this.scanFrom = scanFrom;
    }

    @Override
    public void confirm() {
        use();
        manager.confirmAhead(this);
    }

    @Override
    public void commit() {
        use();
        manager.commitAhead(this);
    }

    @Override
    public void rollback() {
        use();
        manager.rollbackAhead(this);
    }

    private void use() {
        if (!used.compareAndSet(false, true)) {
            throw new IllegalStateException("the transaction written ahead as xid " + TransactionManager.hex(xid)
                    + " was already confirmed, committed or rolled back");
        }
    }
}
