package io.mikyu.jms.message;

import java.util.ArrayList;
import java.util.List;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.StreamMessage;

/**
 * mikyu's {@link StreamMessage}: a sequence of typed values, write-only when created or cleared, read-only after
 * {@link #reset()} or on receive. Reads convert per the specification's Table 3-7; a read that throws (a
 * {@link MessageFormatException}, {@link NumberFormatException} or {@link NullPointerException}) leaves the position
 * where it was so the value can be read again as another type.
 */
public class MikyuStreamMessage extends MikyuMessage implements StreamMessage {

    private final List<Object> values = new ArrayList<>();
    private int index;
    /** While a byte[] field is being read in chunks by readBytes: how much of it was read; otherwise -1. */
    private int bytesOffset = -1;

    public MikyuStreamMessage() {
    }

    @Override
    public BodyType bodyType() {
        return BodyType.STREAM;
    }

    // ================================================================ mode

    @Override
    public void setReadOnlyBody(boolean readOnly) {
        super.setReadOnlyBody(readOnly);
        index = 0;
        bytesOffset = -1;
    }

    @Override
    public void reset() {
        setReadOnlyBody(true);
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        values.clear();
        index = 0;
        bytesOffset = -1;
    }

    /** The live values (byte[] values are the message's own arrays). For the codec. */
    List<Object> values() {
        return values;
    }

    // ================================================================ reading

    private Object current() throws JMSException {
        if (!isReadOnlyBody()) {
            throw new MessageNotReadableException("the StreamMessage is in write-only mode; call reset()");
        }
        if (bytesOffset >= 0) {
            throw new MessageFormatException("the current byte[] field must be read to its end with readBytes first");
        }
        if (index >= values.size()) {
            throw new MessageEOFException("end of the StreamMessage");
        }
        return values.get(index);
    }

    @Override
    public boolean readBoolean() throws JMSException {
        boolean value = TypedValues.asBoolean(current());
        index++;
        return value;
    }

    @Override
    public byte readByte() throws JMSException {
        byte value = TypedValues.asByte(current());
        index++;
        return value;
    }

    @Override
    public short readShort() throws JMSException {
        short value = TypedValues.asShort(current());
        index++;
        return value;
    }

    @Override
    public char readChar() throws JMSException {
        char value = TypedValues.asChar(current());
        index++;
        return value;
    }

    @Override
    public int readInt() throws JMSException {
        int value = TypedValues.asInt(current());
        index++;
        return value;
    }

    @Override
    public long readLong() throws JMSException {
        long value = TypedValues.asLong(current());
        index++;
        return value;
    }

    @Override
    public float readFloat() throws JMSException {
        float value = TypedValues.asFloat(current());
        index++;
        return value;
    }

    @Override
    public double readDouble() throws JMSException {
        double value = TypedValues.asDouble(current());
        index++;
        return value;
    }

    @Override
    public String readString() throws JMSException {
        String value = TypedValues.asString(current());
        index++;
        return value;
    }

    /** The next value as its object type (Character for char, a copy for byte[]), or null. */
    @Override
    public Object readObject() throws JMSException {
        Object value = current();
        index++;
        return value instanceof byte[] b ? b.clone() : value;
    }

    /**
     * Reads a byte[] field in chunks: returns the number of bytes copied into {@code value}; a return equal to
     * {@code value.length} means another call is needed, which returns -1 when the field was fully read. A null field
     * returns -1 at once; an empty field returns 0. Another type of field throws {@link MessageFormatException}.
     */
    @Override
    public int readBytes(byte[] value) throws JMSException {
        if (!isReadOnlyBody()) {
            throw new MessageNotReadableException("the StreamMessage is in write-only mode; call reset()");
        }
        if (bytesOffset < 0) {
            if (index >= values.size()) {
                throw new MessageEOFException("end of the StreamMessage");
            }
            Object field = values.get(index);
            if (field == null) {
                index++;
                return -1;
            }
            if (!(field instanceof byte[])) {
                throw TypedValues.cannotConvert(field, "byte[]");
            }
            bytesOffset = 0;
        }
        byte[] field = (byte[]) values.get(index);
        int remaining = field.length - bytesOffset;
        if (remaining == 0) {
            boolean readBefore = bytesOffset > 0;
            finishBytesField();
            return readBefore ? -1 : 0;
        }
        int n = Math.min(value.length, remaining);
        System.arraycopy(field, bytesOffset, value, 0, n);
        bytesOffset += n;
        if (n < value.length) {
            finishBytesField();
        }
        return n;
    }

    private void finishBytesField() {
        bytesOffset = -1;
        index++;
    }

    // ================================================================ writing

    private void add(Object value) throws JMSException {
        checkBodyWritable();
        values.add(value);
    }

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        add(value);
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        add(value);
    }

    @Override
    public void writeShort(short value) throws JMSException {
        add(value);
    }

    @Override
    public void writeChar(char value) throws JMSException {
        add(value);
    }

    @Override
    public void writeInt(int value) throws JMSException {
        add(value);
    }

    @Override
    public void writeLong(long value) throws JMSException {
        add(value);
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        add(value);
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        add(value);
    }

    @Override
    public void writeString(String value) throws JMSException {
        add(value);
    }

    /** Writes a copy of {@code value}; a null array is written as a null field. */
    @Override
    public void writeBytes(byte[] value) throws JMSException {
        add(value == null ? null : value.clone());
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        if (offset < 0 || length < 0 || offset > value.length - length) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + " for an array of "
                    + value.length);
        }
        add(TypedValues.copy(value, offset, length));
    }

    /** Writes null, a Boolean, Byte, Short, Character, Integer, Long, Float, Double, String or byte[] (copied). */
    @Override
    public void writeObject(Object value) throws JMSException {
        if (!TypedValues.isBodyValue(value)) {
            throw new MessageFormatException("cannot write a " + value.getClass().getName() + " to a StreamMessage");
        }
        add(value instanceof byte[] b ? b.clone() : value);
    }

    // ================================================================ getBody

    /** @throws MessageFormatException always: getBody cannot be used with a StreamMessage */
    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        throw new MessageFormatException("getBody cannot be used with a StreamMessage");
    }

    /** Always false for a StreamMessage. */
    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) {
        return false;
    }
}
