package io.mikyu.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The primitive fields every message is made of, each read with its bounds checked against the frame, so that
 * no length, count or value from the wire is trusted:
 *
 * <pre>
 *   bool       u8, 0 or 1
 *   string     i32 length (-1 for null) + UTF-8 bytes
 *   bytes      i32 length (-1 for null) + bytes
 *   millis     i64, a duration in milliseconds; i64 minimum (-2^63) for null
 *   count      i32, 0 or more, and never more than the bytes left could hold
 * </pre>
 */
public final class Fields {

    private Fields() {
    }

    public static void writeBool(ByteBuf buf, boolean value) {
        buf.writeByte(value ? 1 : 0);
    }

    public static boolean readBool(ByteBuf buf) {
        int b = readU8(buf);
        if (b > 1) {
            throw new MalformedFrameException("boolean field is " + b);
        }
        return b == 1;
    }

    public static int readU8(ByteBuf buf) {
        need(buf, 1);
        return buf.readUnsignedByte();
    }

    public static int readU16(ByteBuf buf) {
        need(buf, 2);
        return buf.readUnsignedShort();
    }

    public static int readInt(ByteBuf buf) {
        need(buf, 4);
        return buf.readInt();
    }

    public static long readLong(ByteBuf buf) {
        need(buf, 8);
        return buf.readLong();
    }

    public static double readDouble(ByteBuf buf) {
        need(buf, 8);
        return buf.readDouble();
    }

    /** A non-negative int, such as a maximum or a count of records wanted. */
    public static int readNonNegativeInt(ByteBuf buf, String what) {
        int value = readInt(buf);
        if (value < 0) {
            throw new MalformedFrameException(what + " is negative: " + value);
        }
        return value;
    }

    /** The number of items that follow, each at least {@code minItemBytes} long. */
    public static int readCount(ByteBuf buf, int minItemBytes) {
        int count = readInt(buf);
        if (count < 0 || (long) count * Math.max(1, minItemBytes) > buf.readableBytes()) {
            throw new MalformedFrameException("count " + count + " does not fit the " + buf.readableBytes()
                    + " bytes left in the frame");
        }
        return count;
    }

    public static void writeString(ByteBuf buf, String value) {
        if (value == null) {
            buf.writeInt(-1);
            return;
        }
        int lengthAt = buf.writerIndex();
        buf.writeInt(0);
        int written = ByteBufUtil.writeUtf8(buf, value);
        buf.setInt(lengthAt, written);
    }

    public static String readString(ByteBuf buf) {
        int length = readLength(buf);
        if (length < 0) {
            return null;
        }
        String value = buf.toString(buf.readerIndex(), length, StandardCharsets.UTF_8);
        buf.skipBytes(length);
        return value;
    }

    /** A string that must be there. */
    public static String readRequiredString(ByteBuf buf, String what) {
        String value = readString(buf);
        if (value == null) {
            throw new MalformedFrameException(what + " is missing");
        }
        return value;
    }

    public static void writeBytes(ByteBuf buf, byte[] value) {
        if (value == null) {
            buf.writeInt(-1);
        } else {
            buf.writeInt(value.length).writeBytes(value);
        }
    }

    public static byte[] readBytes(ByteBuf buf) {
        int length = readLength(buf);
        if (length < 0) {
            return null;
        }
        byte[] value = new byte[length];
        buf.readBytes(value);
        return value;
    }

    /** Bytes that must be there. */
    public static byte[] readRequiredBytes(ByteBuf buf, String what) {
        byte[] value = readBytes(buf);
        if (value == null) {
            throw new MalformedFrameException(what + " is missing");
        }
        return value;
    }

    /** Bytes a field of {@code value} takes: for sizing frames before writing them. */
    public static int sizeOf(byte[] value) {
        return 4 + (value == null ? 0 : value.length);
    }

    public static int sizeOf(String value) {
        return 4 + (value == null ? 0 : ByteBufUtil.utf8Bytes(value));
    }

    /** The null of a millis field. */
    public static final long NO_MILLIS = Long.MIN_VALUE;

    public static void writeMillis(ByteBuf buf, Duration value) {
        buf.writeLong(value == null ? NO_MILLIS : value.toMillis());
    }

    /** A duration as sent, even a negative one: whether it makes sense is the engine's call, as in-process. */
    public static Duration readMillis(ByteBuf buf) {
        long millis = readLong(buf);
        return millis == NO_MILLIS ? null : Duration.ofMillis(millis);
    }

    /** A duration that must be there (0 or more). */
    public static Duration readRequiredMillis(ByteBuf buf, String what) {
        Duration value = readMillis(buf);
        if (value == null) {
            throw new MalformedFrameException(what + " is missing");
        }
        return value;
    }

    /** Fails unless the whole frame was read: trailing bytes mean the peer and we disagree about the layout. */
    public static void expectEnd(ByteBuf buf) {
        if (buf.isReadable()) {
            throw new MalformedFrameException(buf.readableBytes() + " unexpected bytes at the end of the frame");
        }
    }

    /** The length of a bytes field that must be there, checked against the frame; read its bytes in place. */
    public static int readRequiredLength(ByteBuf buf, String what) {
        int length = readLength(buf);
        if (length < 0) {
            throw new MalformedFrameException(what + " is missing");
        }
        return length;
    }

    private static int readLength(ByteBuf buf) {
        int length = readInt(buf);
        if (length < -1 || length > buf.readableBytes()) {
            throw new MalformedFrameException("length " + length + " does not fit the " + buf.readableBytes()
                    + " bytes left in the frame");
        }
        return length;
    }

    private static void need(ByteBuf buf, int bytes) {
        if (buf.readableBytes() < bytes) {
            throw new MalformedFrameException("frame ends " + (bytes - buf.readableBytes()) + " bytes early");
        }
    }
}
