package io.mikyu.engine.internal.txn;

import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.TransactionExistsException;
import io.mikyu.engine.TransactionNotFoundException;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The store's prepared transactions by xid: those in doubt, and reservations of xids whose PREPARE record is being
 * written (a second prepare of the same xid fails while the first is under way). Only those in doubt are listed,
 * counted and decidable.
 */
final class PreparedBranches {

    /** {@code txId} -1: a reservation of the xid while its PREPARE is being written. */
    record Prepared(long txId, byte[] xid, String owner, long preparedAt, List<TxOp> ops,
                    Map<String, Long> scanFrom) {

        PreparedTransaction describe() {
            return new PreparedTransaction(xid, owner, Instant.ofEpochMilli(preparedAt),
                    ops.stream().map(TxOp::queue).distinct().sorted().toList());
        }

        boolean inDoubt() {
            return txId >= 0;
        }
    }

    private final Map<ByteBuffer, Prepared> byXid = new ConcurrentHashMap<>();

    /** Reserves {@code xid} for a PREPARE about to be written; the reservation's key is {@code key}. */
    Prepared reserve(ByteBuffer key, byte[] xid, String owner, List<TxOp> ops) {
        Prepared reservation = new Prepared(-1, xid.clone(), owner, 0, ops, Map.of());
        if (byXid.putIfAbsent(key, reservation) != null) {
            throw new TransactionExistsException("a transaction is already prepared as xid "
                    + TransactionManager.hex(xid));
        }
        return reservation;
    }

    /** The PREPARE of a reservation is durable: the transaction is in doubt. */
    void prepared(ByteBuffer key, Prepared reservation, Prepared inDoubt) {
        byXid.replace(key, reservation, inDoubt);
    }

    /** Gives up a reservation (its PREPARE failed, or the transaction was decided before being prepared). */
    void release(ByteBuffer key, Prepared reservation) {
        byXid.remove(key, reservation);
    }

    /** Recovery: a PREPARE without a decision. */
    void restore(Prepared inDoubt) {
        byXid.put(ByteBuffer.wrap(inDoubt.xid()), inDoubt);
    }

    /** Removes and returns the transaction in doubt as {@code xid}, for its decision. */
    Prepared take(byte[] xid) {
        ByteBuffer key = ByteBuffer.wrap(xid);
        Prepared p = byXid.get(key);
        if (p == null || !p.inDoubt() || !byXid.remove(key, p)) {
            throw new TransactionNotFoundException("no transaction is prepared as xid " + TransactionManager.hex(xid));
        }
        return p;
    }

    List<byte[]> xids() {
        List<byte[]> out = new ArrayList<>();
        for (Prepared p : byXid.values()) {
            if (p.inDoubt()) {
                out.add(p.xid().clone());
            }
        }
        return out;
    }

    /** The transactions in doubt, oldest first. */
    List<PreparedTransaction> inDoubt() {
        List<Prepared> all = new ArrayList<>();
        for (Prepared p : byXid.values()) {
            if (p.inDoubt()) {
                all.add(p);
            }
        }
        all.sort(Comparator.comparingLong(Prepared::txId));
        List<PreparedTransaction> out = new ArrayList<>(all.size());
        for (Prepared p : all) {
            out.add(p.describe());
        }
        return out;
    }

    int count() {
        int n = 0;
        for (Prepared p : byXid.values()) {
            if (p.inDoubt()) {
                n++;
            }
        }
        return n;
    }

    /** Wall-clock milliseconds when the oldest transaction in doubt was prepared; {@link Long#MAX_VALUE} if none. */
    long oldestPreparedAt() {
        long oldest = Long.MAX_VALUE;
        for (Prepared p : byXid.values()) {
            if (p.inDoubt()) {
                oldest = Math.min(oldest, p.preparedAt());
            }
        }
        return oldest;
    }
}
