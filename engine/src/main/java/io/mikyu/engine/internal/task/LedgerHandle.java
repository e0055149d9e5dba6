package io.mikyu.engine.internal.task;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.internal.txn.TxOp;
import io.mikyu.engine.internal.txn.TxParticipant;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What task queues and shared groups share: acking, nacking and extending leases through their
 * {@link LeaseLedger}, its timer and wake-ups, and holding or releasing leases for prepared transactions.
 */
abstract class LedgerHandle implements TxParticipant {

    /** Set once by the subclass's constructor (its item reader refers to the subclass). */
    LeaseLedger ledger;

    public void ack(LeaseToken token) {
        ledger.ack(List.of(token), null);
    }

    public void ack(List<LeaseToken> tokens) {
        ledger.ack(tokens, null);
    }

    public void ack(List<LeaseToken> tokens, io.mikyu.engine.Durability durability) {
        ledger.ack(tokens, durability);
    }

    public void nack(LeaseToken token, Duration delay, String reason) {
        ledger.nack(token, delay, reason);
    }

    public void returnUndelivered(List<LeaseToken> tokens) {
        ledger.returnUndelivered(tokens);
    }

    public long extend(LeaseToken token, Duration lease) {
        return ledger.extend(token, lease);
    }

    public long[] extend(List<LeaseToken> tokens, Duration lease) {
        return ledger.extend(tokens, lease);
    }

    public boolean holds(LeaseToken token) {
        return ledger.holds(token);
    }

    public long ackedCount() {
        return ledger.ackedCount();
    }

    /** Promotes due work; the store's timer calls this a few times a second. */
    public void tick() {
        ledger.tick();
    }

    /** Wakes waiting consumers (on close or delete: they then see the queue closed). */
    public void wakeAll() {
        ledger.withLock(ledger.waiting::wakeAll);
    }

    @Override
    public void hold(List<TxOp> ops) {
        ledger.transactions.hold(settlements(ops));
    }

    @Override
    public void release(List<TxOp> ops) {
        ledger.transactions.release(settlements(ops));
    }

    /** The settlements among a transaction's operations for this handle. */
    abstract List<Settlement> settlements(List<TxOp> ops);

    static List<Settlement> settlementsOf(List<TxOp> ops) {
        List<Settlement> out = new ArrayList<>();
        for (TxOp op : ops) {
            if (op instanceof TxOp.Settle s) {
                out.add(new Settlement(s.token(), s.nack(), s.delayMillis(), s.reason()));
            } else if (op instanceof TxOp.SettleShared s) {
                out.add(new Settlement(s.token(), s.nack(), s.delayMillis(), s.reason()));
            } else if (op instanceof TxOp.DeadLetter d) {
                out.add(Settlement.deadLetter(d));
            }
        }
        return out;
    }
}
