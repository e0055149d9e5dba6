package io.mikyu.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.StreamMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class StreamMessageTest {

    static Stream<Arguments> streamConversionMatrix() {
        return ValueKind.matrix(java.util.EnumSet.allOf(ValueKind.class)).stream();
    }

    static void write(StreamMessage m, ValueKind kind) throws JMSException {
        Object v = kind.sample;
        switch (kind) {
            case BOOLEAN -> m.writeBoolean((Boolean) v);
            case BYTE -> m.writeByte((Byte) v);
            case SHORT -> m.writeShort((Short) v);
            case CHAR -> m.writeChar((Character) v);
            case INT -> m.writeInt((Integer) v);
            case LONG -> m.writeLong((Long) v);
            case FLOAT -> m.writeFloat((Float) v);
            case DOUBLE -> m.writeDouble((Double) v);
            case STRING -> m.writeString((String) v);
            case BYTES -> m.writeBytes((byte[]) v);
        }
    }

    static Object read(StreamMessage m, ValueKind kind) throws JMSException {
        return switch (kind) {
            case BOOLEAN -> m.readBoolean();
            case BYTE -> m.readByte();
            case SHORT -> m.readShort();
            case CHAR -> m.readChar();
            case INT -> m.readInt();
            case LONG -> m.readLong();
            case FLOAT -> m.readFloat();
            case DOUBLE -> m.readDouble();
            case STRING -> m.readString();
            case BYTES -> {
                byte[] buf = new byte[16];
                int n = m.readBytes(buf);
                yield java.util.Arrays.copyOf(buf, n);
            }
        };
    }

    @ParameterizedTest(name = "{0} read as {1}: allowed={2}")
    @MethodSource("streamConversionMatrix")
    void valueConvertsPerTable37AndAFailedReadDoesNotMoveThePosition(ValueKind source, ValueKind target,
                                                                      boolean allowed) throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        write(m, source);
        m.writeString("next");
        m.reset();
        if (allowed) {
            assertThat(read(m, target)).isEqualTo(source.expectedAs(target));
        } else {
            assertThatThrownBy(() -> read(m, target)).isInstanceOf(MessageFormatException.class);
            assertThat(m.readObject()).isEqualTo(source.sample);
        }
        assertThat(m.readString()).isEqualTo("next");
    }

    @ParameterizedTest
    @EnumSource(value = ValueKind.class, names = {"BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE"})
    void unparsableStringThrowsNumberFormatExceptionAndCanBeReadAgain(ValueKind target) throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeString("mytest string");
        m.reset();
        assertThatThrownBy(() -> read(m, target)).isInstanceOf(NumberFormatException.class);
        assertThat(m.readString()).isEqualTo("mytest string");
    }

    @Test
    void nullValueReadsPerValueOfOfNullAndAsNullCharThrowsNullPointerException() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeString(null);
        m.reset();
        assertThatThrownBy(m::readChar).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(m::readByte).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readShort).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readInt).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readLong).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(m::readFloat).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(m::readDouble).isInstanceOf(NullPointerException.class);
        assertThat(m.readBoolean()).isFalse();
        m.reset();
        assertThat(m.readString()).isNull();
        m.reset();
        assertThat(m.readObject()).isNull();
        m.reset();
        assertThat(m.readBytes(new byte[4])).isEqualTo(-1);
        assertThatThrownBy(m::readObject).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void newMessageIsWriteOnlyAndResetMakesItReadOnly() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeInt(1);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(m::readObject).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(() -> m.readBytes(new byte[1])).isInstanceOf(MessageNotReadableException.class);
        m.reset();
        for (ValueKind kind : ValueKind.values()) {
            assertThatThrownBy(() -> write(m, kind)).as(kind.name()).isInstanceOf(MessageNotWriteableException.class);
        }
        assertThatThrownBy(() -> m.writeObject(1)).isInstanceOf(MessageNotWriteableException.class);
        assertThatThrownBy(() -> m.writeBytes(new byte[2], 0, 1)).isInstanceOf(MessageNotWriteableException.class);
        assertThat(m.readInt()).isEqualTo(1);
    }

    @Test
    void readingPastTheLastValueThrowsMessageEof() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeInt(1);
        m.reset();
        m.readInt();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readObject).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(() -> m.readBytes(new byte[1])).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void readBytesWithABufferOfTheFieldLengthReturnsTheLengthThenMinusOne() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        m.writeBoolean(true);
        m.reset();
        byte[] buf = new byte[10];
        assertThat(m.readBytes(buf)).isEqualTo(10);
        assertThat(buf).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        assertThat(m.readBytes(buf)).isEqualTo(-1);
        assertThat(m.readBoolean()).isTrue();
    }

    @Test
    void readBytesReadsALongFieldInChunksAndEndsOnAShortChunk() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
        m.writeInt(7);
        m.reset();
        byte[] buf = new byte[4];
        assertThat(m.readBytes(buf)).isEqualTo(4);
        assertThat(m.readBytes(buf)).isEqualTo(4);
        assertThat(buf).containsExactly(5, 6, 7, 8);
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThat(buf).startsWith(9, 10);
        assertThat(m.readInt()).isEqualTo(7);
    }

    @Test
    void readingAnotherTypeBeforeFinishingAByteArrayFieldThrowsMessageFormatException() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeBytes(new byte[] {1, 2, 3});
        m.writeInt(7);
        m.reset();
        byte[] buf = new byte[2];
        assertThat(m.readBytes(buf)).isEqualTo(2);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(m::readObject).isInstanceOf(MessageFormatException.class);
        assertThat(m.readBytes(buf)).isEqualTo(1);
        assertThat(m.readInt()).isEqualTo(7);
    }

    @Test
    void emptyByteArrayFieldReadsAsZeroBytes() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeBytes(new byte[0]);
        m.writeInt(1);
        m.reset();
        assertThat(m.readBytes(new byte[4])).isZero();
        assertThat(m.readInt()).isEqualTo(1);
    }

    @Test
    void readBytesOfANonByteArrayFieldThrowsAndKeepsThePosition() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeInt(5);
        m.reset();
        assertThatThrownBy(() -> m.readBytes(new byte[4])).isInstanceOf(MessageFormatException.class);
        assertThat(m.readInt()).isEqualTo(5);
    }

    @Test
    void byteArraysAreCopiedOnWriteAndOnRead() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        byte[] in = {1, 2, 3};
        m.writeBytes(in);
        m.writeObject(in);
        m.writeBytes(in, 1, 2);
        in[0] = 9;
        m.reset();
        byte[] first = (byte[]) m.readObject();
        assertThat(first).containsExactly(1, 2, 3);
        first[1] = 9;
        m.reset();
        assertThat((byte[]) m.readObject()).containsExactly(1, 2, 3);
        assertThat((byte[]) m.readObject()).containsExactly(1, 2, 3);
        assertThat((byte[]) m.readObject()).containsExactly(2, 3);
    }

    @Test
    void writeObjectAcceptsTheTableTypesAndNullAndRejectsOthers() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        for (ValueKind kind : ValueKind.values()) {
            m.writeObject(kind.sample);
        }
        m.writeObject(null);
        assertThatThrownBy(() -> m.writeObject(new Object())).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.writeObject(Map.of())).isInstanceOf(MessageFormatException.class);
        m.reset();
        for (ValueKind kind : ValueKind.values()) {
            assertThat(m.readObject()).isEqualTo(kind.sample);
        }
        assertThat(m.readObject()).isNull();
    }

    @Test
    void readObjectReturnsTheWrittenObjectTypes() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        for (ValueKind kind : ValueKind.values()) {
            write(m, kind);
        }
        m.reset();
        List<Class<?>> types = List.of(Boolean.class, Byte.class, Short.class, Character.class, Integer.class,
                Long.class, Float.class, Double.class, String.class, byte[].class);
        for (Class<?> type : types) {
            assertThat(m.readObject()).isInstanceOf(type);
        }
    }

    @Test
    void clearBodyEmptiesTheStreamAndReturnsToWriteOnlyMode() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.setStringProperty("p", "v");
        m.writeString("Testing...");
        m.reset();
        m.readString();
        m.clearBody();
        assertThatThrownBy(m::readString).isInstanceOf(MessageNotReadableException.class);
        m.writeInt(2);
        m.reset();
        assertThat(m.readInt()).isEqualTo(2);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageEOFException.class);
        assertThat(m.getStringProperty("p")).isEqualTo("v");
    }

    @Test
    void resetRewindsToTheFirstValue() throws JMSException {
        MikyuStreamMessage m = new MikyuStreamMessage();
        m.writeString("a");
        m.writeString("b");
        m.reset();
        assertThat(m.readString()).isEqualTo("a");
        m.reset();
        assertThat(m.readString()).isEqualTo("a");
        assertThat(m.readString()).isEqualTo("b");
    }
}
