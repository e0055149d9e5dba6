package io.mikyu.broker.xa;

import io.mikyu.engine.XidFormat;

import javax.transaction.xa.Xid;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/** Xids for the tests that drive XA by hand, and the text the tests compare Xids by. */
final class Xids {

    /** "MKYT": the format id of the Xids these tests make themselves. */
    static final int FORMAT = 0x4d4b5954;

    private Xids() {
    }

    /** A new Xid, its global id naming {@code what} (readable in a failure message) and unique. */
    static Xid create(String what) {
        String gtrid = what + "-" + UUID.randomUUID().toString().substring(0, 8);
        return new XidFormat.StoredXid(FORMAT, gtrid.getBytes(StandardCharsets.US_ASCII),
                "b1".getBytes(StandardCharsets.US_ASCII));
    }

    /** {@code formatId:gtridHex:bqualHex} ({@link XidFormat#toText(byte[])}). */
    static String text(Xid xid) {
        return XidFormat.toText(XidFormat.toBytes(xid));
    }

    static List<String> texts(Xid[] xids) {
        return xids == null ? List.of() : Arrays.stream(xids).map(Xids::text).toList();
    }

    /** The global transaction id of an Xid's text, in hex: what the branches of one transaction share. */
    static String gtridOf(String xidText) {
        return xidText.split(":", -1)[1];
    }

    static String gtridHex(Xid xid) {
        return HexFormat.of().formatHex(xid.getGlobalTransactionId());
    }
}
