package io.mikyu.engine.internal.txn;

import io.mikyu.engine.internal.log.SegmentedLog;
import io.mikyu.engine.internal.write.AppendRequest;

import java.util.List;

/**
 * A queue (or group) as a transaction sees it: it turns its share of a transaction's operations into writes,
 * and updates its memory once they are written. Writes carry the transaction id as their producer id, so
 * recovery can tell whether this participant already has a committed transaction's writes.
 */
public interface TxParticipant {

    /** The log this participant's writes go to, or {@code null} if it writes none (offset commits). */
    SegmentedLog txLog();

    /** Checks that the operations can be applied now (queue open, leases held); throws if not. */
    void validate(List<TxOp> ops);

    /**
     * One write of a transaction and what to do once it is written. {@code request} is {@code null} for effects
     * that write no log record of their own (offset commits), which are simply repeated after a crash.
     */
    record TxWrite(AppendRequest request, Runnable afterWrite) {
    }

    /**
     * The writes for {@code ops}, stamped with {@code txId}, not yet submitted, each with the memory update to run
     * once it is written. Each write is one batch type in one log: recovery checks them one by one.
     */
    List<TxWrite> prepareWrites(List<TxOp> ops, long txId);

    /** A prepared transaction holds the tasks it settles: their leases must not end before it is decided. */
    void hold(List<TxOp> ops);

    /** A prepared transaction was rolled back: the tasks it held go back to the normal lease rules. */
    void release(List<TxOp> ops);
}
