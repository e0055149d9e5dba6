package io.mikyu.jms.message;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UTFDataFormatException;
import java.util.Arrays;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;

/**
 * mikyu's {@link BytesMessage}: write-only when created or cleared, read-only after {@link #reset()} or on receive.
 * Values use {@link java.io.DataOutput} encodings (big-endian, modified UTF-8 for writeUTF). A failed read does not
 * move the read position.
 */
public class MikyuBytesMessage extends MikyuMessage implements BytesMessage {

    private static final byte[] EMPTY = new byte[0];

    /** Arrays cannot be longer than this, whatever the heap. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    private byte[] data = EMPTY;
    private int length;
    private int position;
    /** Sending: where the body is read from at send ({@link LargeBodyStreams#INPUT_STREAM}), instead of data. */
    private InputStream bodyStream;
    /** Received: a large body not read yet; {@code data} holds nothing until a read method needs it. */
    private LargeBodySource largeBody;

    public MikyuBytesMessage() {
    }

    @Override
    public BodyType bodyType() {
        return BodyType.BYTES;
    }

    // ================================================================ mode

    /** Read-only body = read mode at the start of the body; writable = write mode appending to the body. */
    @Override
    public void setReadOnlyBody(boolean readOnly) {
        super.setReadOnlyBody(readOnly);
        position = 0;
    }

    @Override
    public void reset() {
        setReadOnlyBody(true);
    }

    @Override
    public void clearBody() throws JMSException {
        super.clearBody();
        data = EMPTY;
        length = 0;
        position = 0;
        bodyStream = null;
        largeBody = null;
    }

    /**
     * The whole body, whatever the mode; the array is never changed afterwards (appends go past it or to a new
     * array), so a full one is not copied. For the codec.
     */
    byte[] bodyBytes() throws JMSException {
        loadLargeBody();
        return length == data.length ? data : Arrays.copyOf(data, length);
    }

    /** The stream set as {@link LargeBodyStreams#INPUT_STREAM}, or null: the producer sends the body from it. */
    public InputStream bodyStream() {
        return bodyStream;
    }

    /** A received large body, read when first needed. For the session that delivers the message. */
    public void setLargeBody(LargeBodySource source) {
        data = EMPTY;
        length = 0;
        position = 0;
        largeBody = source;
    }

    /**
     * Handles the stream properties ({@link LargeBodyStreams}); every other name is an ordinary property. They are
     * accepted on a received message too, whose properties are otherwise read-only, since that is where the saving
     * ones are used.
     */
    @Override
    public void setObjectProperty(String name, Object value) throws JMSException {
        if (!LargeBodyStreams.isStreamProperty(name)) {
            super.setObjectProperty(name, value);
            return;
        }
        if (LargeBodyStreams.INPUT_STREAM.equals(name)) {
            if (!(value instanceof InputStream in)) {
                throw new MessageFormatException(name + " takes an InputStream, not " + describe(value));
            }
            checkBodyWritable();
            if (length > 0) {
                throw new MessageFormatException(name + " cannot be set on a BytesMessage with bytes written");
            }
            bodyStream = in;
            return;
        }
        if (!(value instanceof OutputStream out)) {
            throw new MessageFormatException(name + " takes an OutputStream, not " + describe(value));
        }
        if (!isReadOnlyBody()) {
            throw new MessageNotReadableException(name + " saves a received message's body; this one is being"
                    + " written");
        }
        if (LargeBodyStreams.SAVE_STREAM.equals(name)) {
            try {
                saveBody(out);
            } catch (IOException e) {
                throw withCause(new JMSException("could not save the message body: " + e.getMessage()), e);
            }
        } else {
            LargeBodyStreams.inBackground("the body of " + getJMSMessageID(), () -> saveBody(out));
        }
    }

    private void saveBody(OutputStream out) throws IOException {
        LargeBodySource source = largeBody;
        if (source == null) {
            out.write(data, 0, length);
            out.flush();
            return;
        }
        try (InputStream in = source.open()) {
            long copied = LargeBodyStreams.copy(in, out);
            if (copied != source.length()) {
                throw new IOException("the body has " + copied + " bytes, its message says " + source.length());
            }
        }
    }

    /** Reads a received large body into memory, the first time a read needs it. */
    private void loadLargeBody() throws JMSException {
        LargeBodySource source = largeBody;
        if (source == null) {
            return;
        }
        if (source.length() > MAX_ARRAY) {
            throw new MessageFormatException("the body of " + source.length() + " bytes does not fit one array;"
                    + " save it with the property " + LargeBodyStreams.SAVE_STREAM);
        }
        try (InputStream in = source.open()) {
            byte[] all = in.readNBytes((int) source.length());
            if (all.length != source.length() || in.read() >= 0) {
                throw new MessageFormatException("the body's length is not the " + source.length()
                        + " bytes its message says");
            }
            data = all;
            length = all.length;
            largeBody = null;
        } catch (IOException e) {
            throw withCause(new JMSException("could not read the message body: " + e.getMessage()), e);
        }
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    /** Replaces the body with {@code body} (not copied). For the codec. */
    void setBodyBytes(byte[] body) {
        data = body;
        length = body.length;
        position = 0;
    }

    private void checkReadable() throws JMSException {
        if (!isReadOnlyBody()) {
            throw new MessageNotReadableException("the BytesMessage is in write-only mode; call reset()");
        }
        loadLargeBody();
    }

    private void checkAvailable(int n) throws JMSException {
        checkReadable();
        if (length - position < n) {
            throw new MessageEOFException("end of the BytesMessage: " + n + " bytes wanted, "
                    + (length - position) + " left");
        }
    }

    // ================================================================ reading

    @Override
    public long getBodyLength() throws JMSException {
        if (largeBody != null && isReadOnlyBody()) {
            return largeBody.length(); // known without reading the body
        }
        checkReadable();
        return length;
    }

    @Override
    public boolean readBoolean() throws JMSException {
        checkAvailable(1);
        return data[position++] != 0;
    }

    @Override
    public byte readByte() throws JMSException {
        checkAvailable(1);
        return data[position++];
    }

    @Override
    public int readUnsignedByte() throws JMSException {
        checkAvailable(1);
        return data[position++] & 0xff;
    }

    @Override
    public short readShort() throws JMSException {
        return (short) readUnsignedShort();
    }

    @Override
    public int readUnsignedShort() throws JMSException {
        checkAvailable(2);
        int value = ((data[position] & 0xff) << 8) | (data[position + 1] & 0xff);
        position += 2;
        return value;
    }

    @Override
    public char readChar() throws JMSException {
        return (char) readUnsignedShort();
    }

    @Override
    public int readInt() throws JMSException {
        checkAvailable(4);
        int value = 0;
        for (int i = 0; i < 4; i++) {
            value = (value << 8) | (data[position + i] & 0xff);
        }
        position += 4;
        return value;
    }

    @Override
    public long readLong() throws JMSException {
        checkAvailable(8);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (data[position + i] & 0xff);
        }
        position += 8;
        return value;
    }

    @Override
    public float readFloat() throws JMSException {
        return Float.intBitsToFloat(readInt());
    }

    @Override
    public double readDouble() throws JMSException {
        return Double.longBitsToDouble(readLong());
    }

    @Override
    public String readUTF() throws JMSException {
        checkReadable();
        ByteArrayInputStream in = new ByteArrayInputStream(data, position, length - position);
        try {
            String value = new DataInputStream(in).readUTF();
            position = length - in.available();
            return value;
        } catch (EOFException e) {
            throw withCause(new MessageEOFException("end of the BytesMessage while reading a UTF string"), e);
        } catch (UTFDataFormatException e) {
            throw withCause(new MessageFormatException("malformed UTF string: " + e.getMessage()), e);
        } catch (IOException e) {
            throw withCause(new JMSException("cannot read a UTF string: " + e.getMessage()), e);
        }
    }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        return readBytes(value, value.length);
    }

    /**
     * Reads up to {@code length} bytes into {@code value}; returns how many, or -1 at the end of the body.
     *
     * @throws IndexOutOfBoundsException if {@code length} is negative or greater than {@code value.length}
     */
    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        if (length < 0 || length > value.length) {
            throw new IndexOutOfBoundsException("length " + length + " for a buffer of " + value.length);
        }
        checkReadable();
        int remaining = this.length - position;
        if (remaining == 0) {
            return -1;
        }
        int n = Math.min(length, remaining);
        System.arraycopy(data, position, value, 0, n);
        position += n;
        return n;
    }

    // ================================================================ writing

    private void append(byte[] bytes, int offset, int count) throws JMSException {
        checkBodyWritable();
        ensureCapacity(count);
        System.arraycopy(bytes, offset, data, length, count);
        length += count;
    }

    private void ensureCapacity(int extra) {
        int needed = length + extra;
        if (needed < 0) {
            throw new OutOfMemoryError("BytesMessage body too large");
        }
        if (needed > data.length) {
            data = Arrays.copyOf(data, Math.max(needed, Math.max(64, data.length * 2)));
        }
    }

    private void appendBigEndian(long value, int bytes) throws JMSException {
        checkBodyWritable();
        ensureCapacity(bytes);
        for (int i = bytes - 1; i >= 0; i--) {
            data[length++] = (byte) (value >>> (8 * i));
        }
    }

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        appendBigEndian(value ? 1 : 0, 1);
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        appendBigEndian(value, 1);
    }

    @Override
    public void writeShort(short value) throws JMSException {
        appendBigEndian(value, 2);
    }

    @Override
    public void writeChar(char value) throws JMSException {
        appendBigEndian(value, 2);
    }

    @Override
    public void writeInt(int value) throws JMSException {
        appendBigEndian(value, 4);
    }

    @Override
    public void writeLong(long value) throws JMSException {
        appendBigEndian(value, 8);
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        appendBigEndian(Float.floatToIntBits(value), 4);
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        appendBigEndian(Double.doubleToLongBits(value), 8);
    }

    /** @throws NullPointerException if {@code value} is null (a BytesMessage has no null) */
    @Override
    public void writeUTF(String value) throws JMSException {
        if (value == null) {
            throw new NullPointerException("a BytesMessage cannot hold a null String");
        }
        checkBodyWritable();
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length() + 2);
        try {
            new DataOutputStream(out).writeUTF(value);
        } catch (UTFDataFormatException e) {
            throw withCause(new MessageFormatException("string too long for writeUTF: " + e.getMessage()), e);
        } catch (IOException e) {
            throw withCause(new JMSException("cannot write a UTF string: " + e.getMessage()), e);
        }
        byte[] bytes = out.toByteArray();
        append(bytes, 0, bytes.length);
    }

    @Override
    public void writeBytes(byte[] value) throws JMSException {
        append(value, 0, value.length);
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        if (offset < 0 || length < 0 || offset > value.length - length) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + " for an array of "
                    + value.length);
        }
        append(value, offset, length);
    }

    /**
     * Writes a Boolean, Byte, Short, Character, Integer, Long, Float, Double, String (as writeUTF) or byte[].
     *
     * @throws NullPointerException   if {@code value} is null
     * @throws MessageFormatException if {@code value} is of any other type
     */
    @Override
    public void writeObject(Object value) throws JMSException {
        if (value == null) {
            throw new NullPointerException("a BytesMessage cannot hold a null value");
        }
        if (value instanceof Boolean v) {
            writeBoolean(v);
        } else if (value instanceof Byte v) {
            writeByte(v);
        } else if (value instanceof Short v) {
            writeShort(v);
        } else if (value instanceof Character v) {
            writeChar(v);
        } else if (value instanceof Integer v) {
            writeInt(v);
        } else if (value instanceof Long v) {
            writeLong(v);
        } else if (value instanceof Float v) {
            writeFloat(v);
        } else if (value instanceof Double v) {
            writeDouble(v);
        } else if (value instanceof String v) {
            writeUTF(v);
        } else if (value instanceof byte[] v) {
            writeBytes(v);
        } else {
            throw new MessageFormatException("cannot write a " + value.getClass().getName() + " to a BytesMessage");
        }
    }

    // ================================================================ getBody

    /** Returns a copy of the whole body (in either mode); in read mode the read position goes back to the start. */
    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        try {
            return super.getBody(c);
        } finally {
            if (isReadOnlyBody()) {
                position = 0;
            }
        }
    }

    @Override
    protected boolean hasNoBody() {
        return largeBody == null ? length == 0 && bodyStream == null : largeBody.length() == 0;
    }

    @Override
    protected boolean canAssignBodyTo(Class<?> c) {
        return c.isAssignableFrom(byte[].class);
    }

    @Override
    protected Object bodyValue() throws JMSException {
        byte[] body = bodyBytes();
        return body == data ? Arrays.copyOf(body, body.length) : body;
    }

    static <E extends JMSException> E withCause(E exception, Exception cause) {
        exception.setLinkedException(cause);
        exception.initCause(cause);
        return exception;
    }
}
