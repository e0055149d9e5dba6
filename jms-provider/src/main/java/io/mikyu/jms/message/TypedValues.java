package io.mikyu.jms.message;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import jakarta.jms.MessageFormatException;

/**
 * The typed-value encoding of WIRE-FORMAT.md and the Jakarta Messaging value conversions, in one place.
 *
 * <p>Two encodings share the tags:
 * <ul>
 *   <li><em>header form</em> ({@link #toHeaderValue}, {@link #fromHeaderValue}): tag byte, then the value filling the
 *       rest of the header value (String as UTF-8, byte[] raw); a {@code null} value is a {@code null} header value.</li>
 *   <li><em>body form</em> ({@link #write}, {@link #read}): tag byte, then the value; String and byte[] carry an int32
 *       length prefix; {@code null} is the tag {@code N} alone. Used by map and stream bodies.</li>
 * </ul>
 *
 * <p>The {@code asXxx} conversions implement the conversion tables of the specification (Table 3-2 for properties,
 * Table 3-7 for StreamMessage and MapMessage; the property table is the same table without char and byte[], which
 * properties cannot hold): unmarked conversions throw {@link MessageFormatException}; String to number uses the
 * number's {@code valueOf}, so a bad string throws {@link NumberFormatException}; a {@code null} read as a primitive
 * behaves as {@code valueOf((String) null)} (false for boolean, {@link NumberFormatException} for the integral
 * types, {@link NullPointerException} for float, double and char).
 */
public final class TypedValues {

    public static final byte BOOLEAN = 'Z';
    public static final byte BYTE = 'B';
    public static final byte SHORT = 'S';
    public static final byte CHAR = 'C';
    public static final byte INT = 'I';
    public static final byte LONG = 'J';
    public static final byte FLOAT = 'F';
    public static final byte DOUBLE = 'D';
    public static final byte STRING = 'T';
    public static final byte BYTES = 'X';
    public static final byte NULL = 'N';

    private TypedValues() {
    }

    // ---------------------------------------------------------------- value kinds

    /** Whether {@code value} may be a property value: null, Boolean, Byte, Short, Integer, Long, Float, Double, String. */
    public static boolean isPropertyValue(Object value) {
        return value == null || value instanceof Boolean || value instanceof Byte || value instanceof Short
                || value instanceof Integer || value instanceof Long || value instanceof Float
                || value instanceof Double || value instanceof String;
    }

    /** Whether {@code value} may be a map or stream body value: a property value, a Character or a byte[]. */
    public static boolean isBodyValue(Object value) {
        return isPropertyValue(value) || value instanceof Character || value instanceof byte[];
    }

    // ---------------------------------------------------------------- header form

    /** Encodes a property or header value in header form; {@code null} stays {@code null}. */
    public static byte[] toHeaderValue(Object value) throws MessageFormatException {
        if (value == null) {
            return null;
        }
        if (value instanceof String s) {
            return tagged(STRING, s.getBytes(StandardCharsets.UTF_8));
        }
        if (value instanceof byte[] b) {
            return tagged(BYTES, b);
        }
        if (value instanceof Boolean b) {
            return new byte[] {BOOLEAN, (byte) (b ? 1 : 0)};
        }
        if (value instanceof Byte b) {
            return new byte[] {BYTE, b};
        }
        if (value instanceof Short s) {
            return ByteBuffer.allocate(3).put(SHORT).putShort(s).array();
        }
        if (value instanceof Character c) {
            return ByteBuffer.allocate(3).put(CHAR).putChar(c).array();
        }
        if (value instanceof Integer i) {
            return ByteBuffer.allocate(5).put(INT).putInt(i).array();
        }
        if (value instanceof Long l) {
            return ByteBuffer.allocate(9).put(LONG).putLong(l).array();
        }
        if (value instanceof Float f) {
            return ByteBuffer.allocate(5).put(FLOAT).putInt(Float.floatToRawIntBits(f)).array();
        }
        if (value instanceof Double d) {
            return ByteBuffer.allocate(9).put(DOUBLE).putLong(Double.doubleToRawLongBits(d)).array();
        }
        throw new MessageFormatException("cannot encode a value of " + value.getClass().getName());
    }

    /** Decodes a header-form value; {@code null} stays {@code null}. byte[] values are returned as a copy. */
    public static Object fromHeaderValue(byte[] bytes) throws MessageFormatException {
        if (bytes == null) {
            return null;
        }
        if (bytes.length == 0) {
            throw new MessageFormatException("empty typed header value");
        }
        byte tag = bytes[0];
        int n = bytes.length - 1;
        ByteBuffer in = ByteBuffer.wrap(bytes, 1, n);
        return switch (tag) {
            case STRING -> new String(bytes, 1, n, StandardCharsets.UTF_8);
            case BYTES -> copy(bytes, 1, n);
            case BOOLEAN -> {
                expectLength(tag, n, 1);
                yield bytes[1] != 0;
            }
            case BYTE -> {
                expectLength(tag, n, 1);
                yield bytes[1];
            }
            case SHORT -> {
                expectLength(tag, n, 2);
                yield in.getShort();
            }
            case CHAR -> {
                expectLength(tag, n, 2);
                yield in.getChar();
            }
            case INT -> {
                expectLength(tag, n, 4);
                yield in.getInt();
            }
            case LONG -> {
                expectLength(tag, n, 8);
                yield in.getLong();
            }
            case FLOAT -> {
                expectLength(tag, n, 4);
                yield Float.intBitsToFloat(in.getInt());
            }
            case DOUBLE -> {
                expectLength(tag, n, 8);
                yield Double.longBitsToDouble(in.getLong());
            }
            case NULL -> {
                expectLength(tag, n, 0);
                yield null;
            }
            default -> throw new MessageFormatException("unknown value tag 0x" + Integer.toHexString(tag & 0xff));
        };
    }

    private static void expectLength(byte tag, int actual, int expected) throws MessageFormatException {
        if (actual != expected) {
            throw new MessageFormatException("value of tag '" + (char) tag + "' has " + actual + " bytes, expected "
                    + expected);
        }
    }

    private static byte[] tagged(byte tag, byte[] value) {
        byte[] out = new byte[value.length + 1];
        out[0] = tag;
        System.arraycopy(value, 0, out, 1, value.length);
        return out;
    }

    // ---------------------------------------------------------------- body form

    /** Writes {@code value} in body form (map and stream bodies). */
    public static void write(DataOutput out, Object value) throws IOException, MessageFormatException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            out.writeByte(STRING);
            out.writeInt(utf8.length);
            out.write(utf8);
        } else if (value instanceof byte[] b) {
            out.writeByte(BYTES);
            out.writeInt(b.length);
            out.write(b);
        } else if (value instanceof Boolean b) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(b);
        } else if (value instanceof Byte b) {
            out.writeByte(BYTE);
            out.writeByte(b);
        } else if (value instanceof Short s) {
            out.writeByte(SHORT);
            out.writeShort(s);
        } else if (value instanceof Character c) {
            out.writeByte(CHAR);
            out.writeChar(c);
        } else if (value instanceof Integer i) {
            out.writeByte(INT);
            out.writeInt(i);
        } else if (value instanceof Long l) {
            out.writeByte(LONG);
            out.writeLong(l);
        } else if (value instanceof Float f) {
            out.writeByte(FLOAT);
            out.writeInt(Float.floatToRawIntBits(f));
        } else if (value instanceof Double d) {
            out.writeByte(DOUBLE);
            out.writeLong(Double.doubleToRawLongBits(d));
        } else {
            throw new MessageFormatException("cannot encode a value of " + value.getClass().getName());
        }
    }

    /** Reads one body-form value. */
    public static Object read(DataInput in) throws IOException, MessageFormatException {
        byte tag = in.readByte();
        return switch (tag) {
            case NULL -> null;
            case STRING -> {
                byte[] utf8 = new byte[checkedLength(in.readInt())];
                in.readFully(utf8);
                yield new String(utf8, StandardCharsets.UTF_8);
            }
            case BYTES -> {
                byte[] b = new byte[checkedLength(in.readInt())];
                in.readFully(b);
                yield b;
            }
            case BOOLEAN -> in.readBoolean();
            case BYTE -> in.readByte();
            case SHORT -> in.readShort();
            case CHAR -> in.readChar();
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case FLOAT -> Float.intBitsToFloat(in.readInt());
            case DOUBLE -> Double.longBitsToDouble(in.readLong());
            default -> throw new MessageFormatException("unknown value tag 0x" + Integer.toHexString(tag & 0xff));
        };
    }

    private static int checkedLength(int length) throws MessageFormatException {
        if (length < 0) {
            throw new MessageFormatException("negative length " + length);
        }
        return length;
    }

    // ---------------------------------------------------------------- conversions

    public static boolean asBoolean(Object value) throws MessageFormatException {
        if (value instanceof Boolean b) {
            return b;
        }
        if (value == null || value instanceof String) {
            return Boolean.parseBoolean((String) value);
        }
        throw cannotConvert(value, "boolean");
    }

    public static byte asByte(Object value) throws MessageFormatException {
        if (value instanceof Byte b) {
            return b;
        }
        if (value == null || value instanceof String) {
            return Byte.parseByte((String) value);
        }
        throw cannotConvert(value, "byte");
    }

    public static short asShort(Object value) throws MessageFormatException {
        if (value instanceof Short s) {
            return s;
        }
        if (value instanceof Byte b) {
            return b;
        }
        if (value == null || value instanceof String) {
            return Short.parseShort((String) value);
        }
        throw cannotConvert(value, "short");
    }

    /** Only a char reads as a char; a {@code null} throws {@link NullPointerException} as the spec requires. */
    public static char asChar(Object value) throws MessageFormatException {
        if (value instanceof Character c) {
            return c;
        }
        if (value == null) {
            throw new NullPointerException("a null value cannot be read as a char");
        }
        throw cannotConvert(value, "char");
    }

    public static int asInt(Object value) throws MessageFormatException {
        if (value instanceof Integer i) {
            return i;
        }
        if (value instanceof Short s) {
            return s;
        }
        if (value instanceof Byte b) {
            return b;
        }
        if (value == null || value instanceof String) {
            return Integer.parseInt((String) value);
        }
        throw cannotConvert(value, "int");
    }

    public static long asLong(Object value) throws MessageFormatException {
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof Integer i) {
            return i;
        }
        if (value instanceof Short s) {
            return s;
        }
        if (value instanceof Byte b) {
            return b;
        }
        if (value == null || value instanceof String) {
            return Long.parseLong((String) value);
        }
        throw cannotConvert(value, "long");
    }

    /** {@code Float.valueOf((String) null)} throws {@link NullPointerException}, and so does this. */
    public static float asFloat(Object value) throws MessageFormatException {
        if (value instanceof Float f) {
            return f;
        }
        if (value == null || value instanceof String) {
            return Float.parseFloat((String) value);
        }
        throw cannotConvert(value, "float");
    }

    /** {@code Double.valueOf((String) null)} throws {@link NullPointerException}, and so does this. */
    public static double asDouble(Object value) throws MessageFormatException {
        if (value instanceof Double d) {
            return d;
        }
        if (value instanceof Float f) {
            return f;
        }
        if (value == null || value instanceof String) {
            return Double.parseDouble((String) value);
        }
        throw cannotConvert(value, "double");
    }

    /** Every type but byte[] reads as a String; {@code null} stays {@code null}. */
    public static String asString(Object value) throws MessageFormatException {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        if (value instanceof byte[]) {
            throw cannotConvert(value, "String");
        }
        return value.toString();
    }

    /** Only a byte[] (returned as a copy) or {@code null} reads as a byte[]. */
    public static byte[] asBytes(Object value) throws MessageFormatException {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[] b) {
            return b.clone();
        }
        throw cannotConvert(value, "byte[]");
    }

    static MessageFormatException cannotConvert(Object value, String target) {
        return new MessageFormatException("cannot read a " + typeName(value) + " value as " + target);
    }

    static String typeName(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof byte[]) {
            return "byte[]";
        }
        return switch (value.getClass().getSimpleName()) {
            case "Boolean" -> "boolean";
            case "Byte" -> "byte";
            case "Short" -> "short";
            case "Character" -> "char";
            case "Integer" -> "int";
            case "Long" -> "long";
            case "Float" -> "float";
            case "Double" -> "double";
            default -> value.getClass().getSimpleName();
        };
    }

    static byte[] copy(byte[] source, int offset, int length) {
        byte[] out = new byte[length];
        System.arraycopy(source, offset, out, 0, length);
        return out;
    }
}
