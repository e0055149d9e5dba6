package io.mikyu.jms.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import org.junit.jupiter.api.Test;

class BytesMessageTest {

    private static void writeOneOfEach(BytesMessage m) throws JMSException {
        m.writeBoolean(true);
        m.writeByte((byte) -2);
        m.writeShort((short) -300);
        m.writeChar('\u20ac');
        m.writeInt(Integer.MIN_VALUE);
        m.writeLong(Long.MAX_VALUE);
        m.writeFloat(1.25f);
        m.writeDouble(-2.5e100);
        m.writeUTF("h\u00e9llo \uD83D\uDE00");
        m.writeBytes(new byte[] {1, 2, 3});
        m.writeBytes(new byte[] {4, 5, 6, 7}, 1, 2);
    }

    @Test
    void newMessageIsWriteOnly() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeInt(1);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(m::readByte).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(() -> m.readBytes(new byte[4])).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(m::getBodyLength).isInstanceOf(MessageNotReadableException.class);
    }

    @Test
    void resetSwitchesToReadOnlyModeAndEveryWriteThrows() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeInt(1);
        m.reset();
        List<ThrowingWrite> writes = List.of(
                () -> m.writeBoolean(true), () -> m.writeByte((byte) 1), () -> m.writeShort((short) 1),
                () -> m.writeChar('c'), () -> m.writeInt(1), () -> m.writeLong(1), () -> m.writeFloat(1),
                () -> m.writeDouble(1), () -> m.writeUTF("x"), () -> m.writeBytes(new byte[1]),
                () -> m.writeBytes(new byte[2], 0, 1), () -> m.writeObject(1));
        for (ThrowingWrite write : writes) {
            assertThatThrownBy(write::run).isInstanceOf(MessageNotWriteableException.class);
        }
        assertThat(m.readInt()).isEqualTo(1);
    }

    interface ThrowingWrite {
        void run() throws JMSException;
    }

    @Test
    void everyTypeReadsBackAfterReset() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        writeOneOfEach(m);
        m.reset();

        assertThat(m.readBoolean()).isTrue();
        assertThat(m.readByte()).isEqualTo((byte) -2);
        assertThat(m.readShort()).isEqualTo((short) -300);
        assertThat(m.readChar()).isEqualTo('\u20ac');
        assertThat(m.readInt()).isEqualTo(Integer.MIN_VALUE);
        assertThat(m.readLong()).isEqualTo(Long.MAX_VALUE);
        assertThat(m.readFloat()).isEqualTo(1.25f);
        assertThat(m.readDouble()).isEqualTo(-2.5e100);
        assertThat(m.readUTF()).isEqualTo("h\u00e9llo \uD83D\uDE00");
        byte[] buf = new byte[10];
        assertThat(m.readBytes(buf)).isEqualTo(5);
        assertThat(buf).startsWith(1, 2, 3, 5, 6);
        assertThat(m.readBytes(buf)).isEqualTo(-1);
    }

    @Test
    void bodyIsEncodedExactlyAsDataOutputStreamWouldWriteIt() throws Exception {
        MikyuBytesMessage m = new MikyuBytesMessage();
        writeOneOfEach(m);

        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(expected);
        out.writeBoolean(true);
        out.writeByte(-2);
        out.writeShort(-300);
        out.writeChar('\u20ac');
        out.writeInt(Integer.MIN_VALUE);
        out.writeLong(Long.MAX_VALUE);
        out.writeFloat(1.25f);
        out.writeDouble(-2.5e100);
        out.writeUTF("h\u00e9llo \uD83D\uDE00");
        out.write(new byte[] {1, 2, 3, 5, 6});

        assertThat(m.bodyBytes()).isEqualTo(expected.toByteArray());
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(expected.size());
    }

    @Test
    void unsignedReadsInterpretTheSameBytesWithoutSign() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeByte((byte) -1);
        m.writeShort((short) -1);
        m.reset();
        assertThat(m.readUnsignedByte()).isEqualTo(255);
        assertThat(m.readUnsignedShort()).isEqualTo(65535);
    }

    @Test
    void readBytesReadsInChunksThenReturnsMinusOne() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeBytes(new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        m.reset();
        byte[] buf = new byte[4];
        assertThat(m.readBytes(buf)).isEqualTo(4);
        assertThat(buf).containsExactly(0, 1, 2, 3);
        assertThat(m.readBytes(buf, 3)).isEqualTo(3);
        assertThat(buf).startsWith(4, 5, 6);
        assertThat(m.readBytes(buf)).isEqualTo(3);
        assertThat(buf).startsWith(7, 8, 9);
        assertThat(m.readBytes(buf)).isEqualTo(-1);
    }

    @Test
    void readBytesWithALengthBeyondTheBufferThrowsIndexOutOfBounds() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeInt(1);
        m.reset();
        assertThatThrownBy(() -> m.readBytes(new byte[2], 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> m.readBytes(new byte[2], -1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void readingPastTheEndThrowsMessageEofWithoutMovingThePosition() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeShort((short) 7);
        m.reset();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readLong).isInstanceOf(MessageEOFException.class);
        assertThat(m.readShort()).isEqualTo((short) 7);
        assertThatThrownBy(m::readByte).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readBoolean).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageEOFException.class);
    }

    @Test
    void truncatedUtfThrowsMessageEofWithoutMovingThePosition() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeShort((short) 10); // a UTF length prefix promising 10 bytes
        m.writeByte((byte) 'a');
        m.reset();
        assertThatThrownBy(m::readUTF).isInstanceOf(MessageEOFException.class);
        assertThat(m.readShort()).isEqualTo((short) 10);
    }

    @Test
    void readUtfOfDataOutputStreamBytesWorks() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new DataOutputStream(bytes).writeUTF("\u0000nul and \u00fc");
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeBytes(bytes.toByteArray());
        m.reset();
        assertThat(m.readUTF()).isEqualTo("\u0000nul and \u00fc");
    }

    @Test
    void writeObjectWritesEachSupportedTypeLikeItsTypedWrite() throws Exception {
        MikyuBytesMessage m = new MikyuBytesMessage();
        for (Object v : List.of(true, (byte) 1, (short) 2, 'c', 3, 4L, 5f, 6d, "s")) {
            m.writeObject(v);
        }
        m.writeObject(new byte[] {9});
        m.reset();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(m.bodyBytes()));
        assertThat(in.readBoolean()).isTrue();
        assertThat(in.readByte()).isEqualTo((byte) 1);
        assertThat(in.readShort()).isEqualTo((short) 2);
        assertThat(in.readChar()).isEqualTo('c');
        assertThat(in.readInt()).isEqualTo(3);
        assertThat(in.readLong()).isEqualTo(4L);
        assertThat(in.readFloat()).isEqualTo(5f);
        assertThat(in.readDouble()).isEqualTo(6d);
        assertThat(in.readUTF()).isEqualTo("s");
        assertThat(in.readByte()).isEqualTo((byte) 9);
        assertThat(in.available()).isZero();
    }

    @Test
    void writeObjectOfNullThrowsNullPointerException() {
        MikyuBytesMessage m = new MikyuBytesMessage();
        assertThatThrownBy(() -> m.writeObject(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.writeUTF(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.writeBytes(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void writeObjectOfAnUnsupportedTypeThrowsMessageFormatException() {
        MikyuBytesMessage m = new MikyuBytesMessage();
        assertThatThrownBy(() -> m.writeObject(new Object())).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.writeObject(List.of())).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void writeBytesWithABadRangeThrowsIndexOutOfBounds() {
        MikyuBytesMessage m = new MikyuBytesMessage();
        assertThatThrownBy(() -> m.writeBytes(new byte[3], 2, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> m.writeBytes(new byte[3], -1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void writeBytesCopiesItsInput() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        byte[] in = {1, 2};
        m.writeBytes(in);
        in[0] = 9;
        m.reset();
        assertThat(m.readByte()).isEqualTo((byte) 1);
    }

    @Test
    void writeUtfOfAStringTooLongThrowsMessageFormatException() {
        MikyuBytesMessage m = new MikyuBytesMessage();
        assertThatThrownBy(() -> m.writeUTF("x".repeat(70_000))).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void resetAgainRewindsToTheStart() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.writeInt(42);
        m.reset();
        assertThat(m.readInt()).isEqualTo(42);
        m.reset();
        assertThat(m.readInt()).isEqualTo(42);
    }

    @Test
    void clearBodyEmptiesTheBodyAndReturnsToWriteOnlyMode() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.setStringProperty("p", "v");
        m.writeInt(1);
        m.reset();
        m.clearBody();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        m.writeByte((byte) 5);
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(1);
        assertThat(m.readByte()).isEqualTo((byte) 5);
        assertThat(m.getStringProperty("p")).isEqualTo("v");
    }

    @Test
    void largeBodiesGrowTheBuffer() throws JMSException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        for (int i = 0; i < 100_000; i++) {
            m.writeInt(i);
        }
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(400_000);
        for (int i = 0; i < 100_000; i++) {
            assertThat(m.readInt()).isEqualTo(i);
        }
    }

    @Test
    void emptyBodyReadsAsEndOfStream() throws JMSException, IOException {
        MikyuBytesMessage m = new MikyuBytesMessage();
        m.reset();
        assertThat(m.getBodyLength()).isZero();
        assertThat(m.readBytes(new byte[1])).isEqualTo(-1);
        assertThatThrownBy(m::readByte).isInstanceOf(MessageEOFException.class);
    }
}
