package io.mikyu.engine.txn;

import io.mikyu.engine.XidFormat;
import org.junit.jupiter.api.Test;

import javax.transaction.xa.Xid;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The XA id layout and its text form: prepared transactions of older stores and what operators typed into
 * {@code mikyu xa} must keep reading the same, so the bytes and the text are pinned here.
 */
class XidFormatTest {

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void anXidIsFormatThenLengthsThenGtridThenBqual() {
        Xid xid = new XidFormat.StoredXid(131077, new byte[] {0x0a, 0x1b}, new byte[] {0x01});
        byte[] bytes = XidFormat.toBytes(xid);

        assertThat(HEX.formatHex(bytes)).isEqualTo("00020005" + "02" + "01" + "0a1b" + "01");
        assertThat(XidFormat.isXid(bytes)).isTrue();
        assertThat(XidFormat.fromBytes(bytes)).isEqualTo(xid);
        assertThat(XidFormat.toText(bytes)).isEqualTo("131077:0a1b:01");
        assertThat(XidFormat.fromText("131077:0a1b:01")).isEqualTo(bytes);
        assertThat(xid).hasToString("131077:0a1b:01");
    }

    @Test
    void bytesOutsideTheLayoutAreWrittenAsHex() {
        byte[] own = {1, 2, 3};
        assertThat(XidFormat.isXid(own)).isFalse();
        assertThat(XidFormat.toText(own)).isEqualTo("0x010203");
        assertThat(XidFormat.fromText(" 0x010203 ")).isEqualTo(own);
    }

    @Test
    void anEmptyBranchQualifierIsAllowed() {
        byte[] bytes = XidFormat.toBytes(new XidFormat.StoredXid(-1, new byte[] {(byte) 0xff}, new byte[0]));
        assertThat(XidFormat.toText(bytes)).isEqualTo("-1:ff:");
        assertThat(XidFormat.fromText("-1:ff:")).isEqualTo(bytes);
    }

    @Test
    void badTextAndBadIdsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> XidFormat.fromText("1:0a"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("formatId:gtridHex:bqualHex");
        assertThatThrownBy(() -> XidFormat.fromText("x:0a:01"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an XA transaction id");
        assertThatThrownBy(() -> XidFormat.toBytes(new XidFormat.StoredXid(1, new byte[65], new byte[0])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 64 bytes");
        assertThatThrownBy(() -> XidFormat.fromBytes(new byte[] {1, 2, 3}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0x010203");
    }
}
