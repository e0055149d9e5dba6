package io.mikyu.engine;

import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * A transaction prepared and not yet decided (in doubt), as {@link Mikyu#inDoubtTransactions()} lists it.
 *
 * <p>Equality is by content: two instances are equal when their xids hold the same bytes and the other components are
 * equal. The xid is copied in and out, so callers cannot change it.
 *
 * @param xid        the id it was prepared under (opaque bytes; an XA Xid in {@link XidFormat}'s layout)
 * @param owner      the user who prepared it ({@link Transaction#prepare(byte[], String)}), {@code null} if none was
 *                   given
 * @param preparedAt when its PREPARE record was written; after a restart still the original time
 * @param queues     the sorted, distinct names of the queues it writes to or settles on (log and task queues alike;
 *                   for shared-group acks and offset commits, the log queue)
 */
public record PreparedTransaction(byte[] xid, String owner, Instant preparedAt, List<String> queues) {

    public PreparedTransaction {
        xid = Objects.requireNonNull(xid, "xid").clone();
        Objects.requireNonNull(preparedAt, "preparedAt");
        queues = List.copyOf(queues);
    }

    /** A copy of the xid. */
    @Override
    public byte[] xid() {
        return xid.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PreparedTransaction p && Arrays.equals(xid, p.xid) && Objects.equals(owner, p.owner)
                && preparedAt.equals(p.preparedAt) && queues.equals(p.queues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(xid), owner, preparedAt, queues);
    }

    @Override
    public String toString() {
        return "PreparedTransaction[xid=" + HexFormat.of().formatHex(xid) + ", owner=" + owner + ", preparedAt="
                + preparedAt + ", queues=" + queues + "]";
    }
}
