package io.mikyu.selector;

/**
 * Decodes a typed engine header value (see {@code jms-provider/WIRE-FORMAT.md}: a type-tag byte, then the big-endian
 * value) into a {@link Val}, without allocating for numbers and booleans; strings stay as UTF-8 bytes until needed.
 *
 * <p>Deliberately independent of the JMS provider's message codec: selectors only need to read.
 * A {@code null} value (or the tag {@code N} alone) is SQL NULL; a {@code byte[]} value ({@code X}), an unknown tag or a value of the wrong length is
 * an opaque non-null value that compares unequal to everything.
 */
final class TypedHeaderDecoder {

    static final byte TAG_BOOLEAN = 'Z';
    static final byte TAG_BYTE = 'B';
    static final byte TAG_SHORT = 'S';
    static final byte TAG_INT = 'I';
    static final byte TAG_LONG = 'J';
    static final byte TAG_FLOAT = 'F';
    static final byte TAG_DOUBLE = 'D';
    static final byte TAG_STRING = 'T';
    static final byte TAG_BYTES = 'X';
    static final byte TAG_NULL = 'N';

    private TypedHeaderDecoder() {
    }

    static void decode(byte[] v, Val out) {
        if (v == null) {
            out.setNull();
            return;
        }
        if (v.length == 0) {
            out.setOther();
            return;
        }
        int n = v.length - 1;
        switch (v[0]) {
            case TAG_STRING:
                out.setUtf8(v, 1);
                return;
            case TAG_INT:
                if (n == 4) {
                    out.setInt(readInt(v, 1));
                    return;
                }
                break;
            case TAG_LONG:
                if (n == 8) {
                    out.setLong(readLong(v, 1));
                    return;
                }
                break;
            case TAG_BOOLEAN:
                if (n == 1) {
                    out.setBool(v[1] != 0);
                    return;
                }
                break;
            case TAG_BYTE:
                if (n == 1) {
                    out.setInt(v[1]);
                    return;
                }
                break;
            case TAG_SHORT:
                if (n == 2) {
                    out.setInt((short) (((v[1] & 0xFF) << 8) | (v[2] & 0xFF)));
                    return;
                }
                break;
            case TAG_FLOAT:
                if (n == 4) {
                    out.setFloat(Float.intBitsToFloat(readInt(v, 1)));
                    return;
                }
                break;
            case TAG_DOUBLE:
                if (n == 8) {
                    out.setDouble(Double.longBitsToDouble(readLong(v, 1)));
                    return;
                }
                break;
            case TAG_NULL: // used in map and stream bodies; read as NULL should a header ever carry it
                if (n == 0) {
                    out.setNull();
                    return;
                }
                break;
            default:
                break;
        }
        out.setOther();
    }

    private static int readInt(byte[] v, int at) {
        return ((v[at] & 0xFF) << 24) | ((v[at + 1] & 0xFF) << 16) | ((v[at + 2] & 0xFF) << 8) | (v[at + 3] & 0xFF);
    }

    private static long readLong(byte[] v, int at) {
        return ((long) readInt(v, at) << 32) | (readInt(v, at + 4) & 0xFFFFFFFFL);
    }
}
