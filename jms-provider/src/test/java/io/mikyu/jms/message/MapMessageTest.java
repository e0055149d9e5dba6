package io.mikyu.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;

import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class MapMessageTest {

    static Stream<Arguments> mapConversionMatrix() {
        return ValueKind.matrix(EnumSet.allOf(ValueKind.class)).stream();
    }

    static void set(MapMessage m, String name, ValueKind kind) throws JMSException {
        Object v = kind.sample;
        switch (kind) {
            case BOOLEAN -> m.setBoolean(name, (Boolean) v);
            case BYTE -> m.setByte(name, (Byte) v);
            case SHORT -> m.setShort(name, (Short) v);
            case CHAR -> m.setChar(name, (Character) v);
            case INT -> m.setInt(name, (Integer) v);
            case LONG -> m.setLong(name, (Long) v);
            case FLOAT -> m.setFloat(name, (Float) v);
            case DOUBLE -> m.setDouble(name, (Double) v);
            case STRING -> m.setString(name, (String) v);
            case BYTES -> m.setBytes(name, (byte[]) v);
        }
    }

    static Object get(MapMessage m, String name, ValueKind kind) throws JMSException {
        return switch (kind) {
            case BOOLEAN -> m.getBoolean(name);
            case BYTE -> m.getByte(name);
            case SHORT -> m.getShort(name);
            case CHAR -> m.getChar(name);
            case INT -> m.getInt(name);
            case LONG -> m.getLong(name);
            case FLOAT -> m.getFloat(name);
            case DOUBLE -> m.getDouble(name);
            case STRING -> m.getString(name);
            case BYTES -> m.getBytes(name);
        };
    }

    @ParameterizedTest(name = "{0} read as {1}: allowed={2}")
    @MethodSource("mapConversionMatrix")
    void valueConvertsPerTable37(ValueKind source, ValueKind target, boolean allowed) throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        set(m, "v", source);
        if (allowed) {
            assertThat(get(m, "v", target)).isEqualTo(source.expectedAs(target));
        } else {
            assertThatThrownBy(() -> get(m, "v", target)).isInstanceOf(MessageFormatException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ValueKind.class, names = {"BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE"})
    void unparsableStringThrowsNumberFormatException(ValueKind target) throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        m.setString("s", "mytest string");
        assertThatThrownBy(() -> get(m, "s", target)).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void unsetOrNullNameReadsAsANullValue() throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        m.setString("n", null);
        for (String name : new String[] {"n", "missing"}) {
            assertThat(m.getBoolean(name)).isFalse();
            assertThatThrownBy(() -> m.getByte(name)).isInstanceOf(NumberFormatException.class);
            assertThatThrownBy(() -> m.getShort(name)).isInstanceOf(NumberFormatException.class);
            assertThatThrownBy(() -> m.getInt(name)).isInstanceOf(NumberFormatException.class);
            assertThatThrownBy(() -> m.getLong(name)).isInstanceOf(NumberFormatException.class);
            assertThatThrownBy(() -> m.getFloat(name)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> m.getDouble(name)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> m.getChar(name)).isInstanceOf(NullPointerException.class);
            assertThat(m.getString(name)).isNull();
            assertThat(m.getBytes(name)).isNull();
            assertThat(m.getObject(name)).isNull();
        }
        assertThat(m.itemExists("n")).isTrue();
        assertThat(m.itemExists("missing")).isFalse();
    }

    @Test
    void nullOrEmptyNameIsRejected() {
        MikyuMapMessage m = new MikyuMapMessage();
        for (ValueKind kind : ValueKind.values()) {
            assertThatThrownBy(() -> set(m, null, kind)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> set(m, "", kind)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> m.setObject("", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.setObject(null, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.setBytes("", new byte[2], 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anyNonEmptyNameIsAllowed() throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        m.setInt("not an identifier!", 1);
        assertThat(m.getInt("not an identifier!")).isEqualTo(1);
    }

    @Test
    void setObjectAcceptsTheTableTypesAndNullAndRejectsOthers() throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        for (ValueKind kind : ValueKind.values()) {
            m.setObject(kind.name(), kind.sample);
            assertThat(m.getObject(kind.name())).isEqualTo(kind.sample);
        }
        m.setObject("null", null);
        assertThat(m.itemExists("null")).isTrue();
        assertThatThrownBy(() -> m.setObject("bad", new Object())).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.setObject("bad", List.of())).isInstanceOf(MessageFormatException.class);
        assertThat(m.itemExists("bad")).isFalse();
    }

    @Test
    void byteArraysAreCopiedInAndOut() throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        byte[] in = {1, 2, 3};
        m.setBytes("a", in);
        m.setObject("b", in);
        m.setBytes("c", in, 1, 2);
        in[0] = 9;
        assertThat(m.getBytes("a")).containsExactly(1, 2, 3);
        assertThat((byte[]) m.getObject("b")).containsExactly(1, 2, 3);
        assertThat(m.getBytes("c")).containsExactly(2, 3);
        m.getBytes("a")[0] = 9;
        ((byte[]) m.getObject("b"))[0] = 9;
        assertThat(m.getBytes("a")).containsExactly(1, 2, 3);
        assertThat(m.getBytes("b")).containsExactly(1, 2, 3);
    }

    @Test
    void setBytesWithABadRangeThrowsIndexOutOfBounds() {
        MikyuMapMessage m = new MikyuMapMessage();
        assertThatThrownBy(() -> m.setBytes("a", new byte[2], 1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void getMapNamesListsEveryNameOnce() throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        m.setInt("a", 1);
        m.setString("b", "x");
        m.setInt("a", 2);
        assertThat(Collections.list(m.getMapNames())).containsExactlyInAnyOrder("a", "b");
        assertThat(m.getInt("a")).isEqualTo(2);
    }

    @Test
    void readOnlyBodyRejectsEverySetterUntilCleared() throws JMSException {
        MikyuMapMessage m = new MikyuMapMessage();
        m.setInt("kept", 1);
        m.setStringProperty("p", "v");
        m.setReadOnlyBody(true);
        for (ValueKind kind : ValueKind.values()) {
            assertThatThrownBy(() -> set(m, "x", kind)).as(kind.name())
                    .isInstanceOf(MessageNotWriteableException.class);
        }
        assertThatThrownBy(() -> m.setObject("x", 1)).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> m.setBytes("x", new byte[2], 0, 1)).isInstanceOf(MessageNotWriteableException.class);
        assertThat(m.getInt("kept")).isEqualTo(1);

        m.clearBody();
        assertThat(m.getMapNames().hasMoreElements()).isFalse();
        assertThat(m.getStringProperty("p")).isEqualTo("v");
        m.setInt("x", 2);
        assertThat(m.getInt("x")).isEqualTo(2);
    }
}
