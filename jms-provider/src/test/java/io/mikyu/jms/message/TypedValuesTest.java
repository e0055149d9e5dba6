package io.mikyu.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;

import jakarta.jms.MessageFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TypedValuesTest {

    @ParameterizedTest
    @EnumSource(ValueKind.class)
    void everyTypeRoundTripsInHeaderForm(ValueKind kind) throws Exception {
        byte[] encoded = TypedValues.toHeaderValue(kind.sample);
        assertThat(TypedValues.fromHeaderValue(encoded)).isEqualTo(kind.sample);
    }

    @ParameterizedTest
    @EnumSource(ValueKind.class)
    void everyTypeRoundTripsInBodyForm(ValueKind kind) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TypedValues.write(new DataOutputStream(bytes), kind.sample);
        TypedValues.write(new DataOutputStream(bytes), null);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        assertThat(TypedValues.read(in)).isEqualTo(kind.sample);
        assertThat(TypedValues.read(in)).isNull();
        assertThat(in.available()).isZero();
    }

    @Test
    void headerFormTagsMatchTheWireFormatTable() throws Exception {
        assertThat(TypedValues.toHeaderValue(true)).containsExactly('Z', 1);
        assertThat(TypedValues.toHeaderValue(false)).containsExactly('Z', 0);
        assertThat(TypedValues.toHeaderValue((byte) 5)).containsExactly('B', 5);
        assertThat(TypedValues.toHeaderValue((short) 258)).containsExactly('S', 1, 2);
        assertThat(TypedValues.toHeaderValue(0x01020304)).containsExactly('I', 1, 2, 3, 4);
        assertThat(TypedValues.toHeaderValue(1L)).containsExactly('J', 0, 0, 0, 0, 0, 0, 0, 1);
        assertThat(TypedValues.toHeaderValue(1.0f)).containsExactly('F', 0x3f, -128, 0, 0);
        assertThat(TypedValues.toHeaderValue(1.0d)).containsExactly('D', 0x3f, -16, 0, 0, 0, 0, 0, 0);
        assertThat(TypedValues.toHeaderValue("\u00e9")).containsExactly('T', 0xc3 - 256, 0xa9 - 256);
        assertThat(TypedValues.toHeaderValue(new byte[] {7})).containsExactly('X', 7);
        assertThat(TypedValues.toHeaderValue(null)).isNull();
        assertThat(TypedValues.fromHeaderValue(null)).isNull();
    }

    @Test
    void nanAndNegativeZeroKeepTheirBits() throws Exception {
        assertThat((Double) TypedValues.fromHeaderValue(TypedValues.toHeaderValue(Double.NaN))).isNaN();
        assertThat(1 / (Double) TypedValues.fromHeaderValue(TypedValues.toHeaderValue(-0.0d)))
                .isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void malformedHeaderValuesAreFormatErrors() {
        assertThatThrownBy(() -> TypedValues.fromHeaderValue(new byte[0])).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> TypedValues.fromHeaderValue(new byte[] {'I', 1}))
                .isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> TypedValues.fromHeaderValue(new byte[] {'?'}))
                .isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> TypedValues.toHeaderValue(new Object())).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void truncatedOrNegativeLengthBodyValuesFail() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte('T');
        out.writeInt(-1);
        assertThatThrownBy(() -> TypedValues.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))))
                .isInstanceOf(MessageFormatException.class);
        byte[] truncated = {'X', 0, 0, 0, 5, 1};
        assertThatThrownBy(() -> TypedValues.read(new DataInputStream(new ByteArrayInputStream(truncated))))
                .isInstanceOf(EOFException.class);
    }

    @Test
    void valueKindsAreClassifiedPerSpec() {
        assertThat(TypedValues.isPropertyValue('c')).isFalse();
        assertThat(TypedValues.isPropertyValue(new byte[0])).isFalse();
        assertThat(TypedValues.isPropertyValue(null)).isTrue();
        assertThat(TypedValues.isBodyValue('c')).isTrue();
        assertThat(TypedValues.isBodyValue(new byte[0])).isTrue();
        assertThat(TypedValues.isBodyValue(new Object())).isFalse();
        assertThat(TypedValues.isBodyValue(new Byte[0])).isFalse();
    }
}
