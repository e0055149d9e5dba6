package io.mikyu.engine;

import javax.transaction.xa.Xid;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * How an XA {@link Xid} is kept as the engine's opaque transaction id ({@link Transaction#prepare(byte[], String)},
 * {@link PreparedTransaction#xid()}), and how people write it. The JMS provider's XA resources prepare under these
 * bytes; {@code mikyu xa} prints and reads the text form. The wire protocol carries the bytes as they are.
 *
 * <pre>
 *   0      4        5        6             6+g
 *   +------+--------+--------+-------------+-------------+
 *   |format|gtridLen|bqualLen| gtrid (g)   | bqual (b)   |
 *   | i32  |  u8    |  u8    | 1..64 bytes | 0..64 bytes |
 *   +------+--------+--------+-------------+-------------+
 * </pre>
 *
 * Big-endian. The text form is {@code formatId:gtridHex:bqualHex} (e.g. {@code 131077:0a1b:01}); bytes that are not in
 * this layout (a transaction prepared through the engine API with an id of its own) are written {@code 0x<hex>}.
 */
public final class XidFormat {

    private static final HexFormat HEX = HexFormat.of();

    private XidFormat() {
    }

    /** The engine's bytes for {@code xid}. */
    public static byte[] toBytes(Xid xid) {
        byte[] gtrid = xid.getGlobalTransactionId();
        byte[] bqual = xid.getBranchQualifier();
        if (gtrid == null || gtrid.length == 0 || gtrid.length > Xid.MAXGTRIDSIZE) {
            throw new IllegalArgumentException("a global transaction id has 1 to 64 bytes");
        }
        if (bqual == null) {
            bqual = new byte[0];
        }
        if (bqual.length > Xid.MAXBQUALSIZE) {
            throw new IllegalArgumentException("a branch qualifier has at most 64 bytes");
        }
        return ByteBuffer.allocate(6 + gtrid.length + bqual.length)
                .putInt(xid.getFormatId())
                .put((byte) gtrid.length)
                .put((byte) bqual.length)
                .put(gtrid)
                .put(bqual)
                .array();
    }

    /** Whether {@code bytes} are in the layout above. */
    public static boolean isXid(byte[] bytes) {
        if (bytes.length < 6) {
            return false;
        }
        int g = bytes[4] & 0xFF;
        int b = bytes[5] & 0xFF;
        return g >= 1 && g <= Xid.MAXGTRIDSIZE && b <= Xid.MAXBQUALSIZE && bytes.length == 6 + g + b;
    }

    /** The Xid in {@code bytes}; {@link IllegalArgumentException} if they are not in the layout above. */
    public static Xid fromBytes(byte[] bytes) {
        if (!isXid(bytes)) {
            throw new IllegalArgumentException("not an XA transaction id: 0x" + HEX.formatHex(bytes));
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int format = in.getInt();
        byte[] gtrid = new byte[in.get() & 0xFF];
        byte[] bqual = new byte[in.get() & 0xFF];
        in.get(gtrid).get(bqual);
        return new StoredXid(format, gtrid, bqual);
    }

    /** {@code formatId:gtridHex:bqualHex}, or {@code 0x<hex>} for bytes not in the layout. */
    public static String toText(byte[] bytes) {
        if (!isXid(bytes)) {
            return "0x" + HEX.formatHex(bytes);
        }
        Xid x = fromBytes(bytes);
        return x.getFormatId() + ":" + HEX.formatHex(x.getGlobalTransactionId()) + ":"
                + HEX.formatHex(x.getBranchQualifier());
    }

    /** Reads what {@link #toText(byte[])} writes; {@link IllegalArgumentException} naming the problem otherwise. */
    public static byte[] fromText(String text) {
        String t = text.trim();
        try {
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return HEX.parseHex(t.substring(2));
            }
            String[] parts = t.split(":", -1);
            if (parts.length != 3) {
                throw new IllegalArgumentException("an XA transaction id is formatId:gtridHex:bqualHex or 0x<hex>: "
                        + text);
            }
            return toBytes(new StoredXid(Integer.parseInt(parts[0]), HEX.parseHex(parts[1]),
                    HEX.parseHex(parts[2])));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an XA transaction id (" + e.getMessage() + "): " + text, e);
        }
    }

    /** An Xid read back from the store: equal to any Xid with the same three parts. */
    public record StoredXid(int formatId, byte[] gtrid, byte[] bqual) implements Xid {

        @Override
        public int getFormatId() {
            return formatId;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return gtrid.clone();
        }

        @Override
        public byte[] getBranchQualifier() {
            return bqual.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Xid x && x.getFormatId() == formatId
                    && Arrays.equals(x.getGlobalTransactionId(), gtrid)
                    && Arrays.equals(x.getBranchQualifier(), bqual);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * formatId + Arrays.hashCode(gtrid)) + Arrays.hashCode(bqual);
        }

        @Override
        public String toString() {
            return XidFormat.toText(XidFormat.toBytes(this));
        }
    }
}
