package io.mikyu.jca.outbound;

import javax.transaction.xa.Xid;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

/**
 * The Xid of a local transaction run as a branch of the physical XA session and committed in one phase. Never
 * prepared, so it never shows in {@code recover()}; its format id keeps it apart from any transaction manager's.
 */
final class LocalXid implements Xid {

    /** "mklt": mikyu local transaction. */
    static final int FORMAT_ID = 0x6d6b6c74;
    private static final byte[] BRANCH = {1};

    private final byte[] gtrid;

    private LocalXid(byte[] gtrid) {
        this.gtrid = gtrid;
    }

    static LocalXid next() {
        UUID u = UUID.randomUUID();
        return new LocalXid(ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
                .putLong(u.getLeastSignificantBits()).array());
    }

    @Override
    public int getFormatId() {
        return FORMAT_ID;
    }

    @Override
    public byte[] getGlobalTransactionId() {
        return gtrid.clone();
    }

    @Override
    public byte[] getBranchQualifier() {
        return BRANCH.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocalXid x && Arrays.equals(x.gtrid, gtrid);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(gtrid);
    }

    @Override
    public String toString() {
        return "LocalXid[" + UUID.nameUUIDFromBytes(gtrid) + "]";
    }
}
