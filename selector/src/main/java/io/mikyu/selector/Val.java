package io.mikyu.selector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A mutable, reusable slot holding one selector value without boxing: SQL NULL, a boolean, an exact number (int or
 * long, kept in {@link #l}), an approximate number (float or double, kept in {@link #d}), a string (as a {@code String}
 * or as UTF-8 bytes not yet decoded), or an opaque value that is not {@code NULL} but equals nothing (a
 * {@code byte[]} correlation id, an unsupported Java type, a malformed header).
 *
 * <p>The numeric kinds are ordered so that Java binary numeric promotion is {@code max(kind, kind)}.
 */
final class Val {

    static final byte NULL = 0;
    static final byte BOOL = 1;
    static final byte INT = 2;
    static final byte LONG = 3;
    static final byte FLOAT = 4;
    static final byte DOUBLE = 5;
    static final byte STRING = 6;
    static final byte OTHER = 7;

    byte kind;
    boolean b;
    long l;
    double d;
    /** The string value, or {@code null} while only {@link #raw} is known. */
    String s;
    /** UTF-8 bytes of the string value from {@link #rawOff} to the end, or {@code null}. */
    byte[] raw;
    int rawOff;

    boolean isNull() {
        return kind == NULL;
    }

    boolean isNumeric() {
        return kind >= INT && kind <= DOUBLE;
    }

    void setNull() {
        kind = NULL;
        s = null;
        raw = null;
    }

    void setOther() {
        kind = OTHER;
        s = null;
        raw = null;
    }

    void setBool(boolean value) {
        kind = BOOL;
        b = value;
        s = null;
        raw = null;
    }

    void setInt(int value) {
        kind = INT;
        l = value;
        s = null;
        raw = null;
    }

    void setLong(long value) {
        kind = LONG;
        l = value;
        s = null;
        raw = null;
    }

    void setFloat(float value) {
        kind = FLOAT;
        d = value;
        s = null;
        raw = null;
    }

    void setDouble(double value) {
        kind = DOUBLE;
        d = value;
        s = null;
        raw = null;
    }

    void setString(String value) {
        kind = STRING;
        s = value;
        raw = null;
    }

    /** A string held as the UTF-8 bytes {@code bytes[offset..]}; decoded only if something needs the characters. */
    void setUtf8(byte[] bytes, int offset) {
        kind = STRING;
        s = null;
        raw = bytes;
        rawOff = offset;
    }

    void copyFrom(Val o) {
        kind = o.kind;
        b = o.b;
        l = o.l;
        d = o.d;
        s = o.s;
        raw = o.raw;
        rawOff = o.rawOff;
    }

    /** The characters of a {@link #STRING} value, decoding (once) if needed. */
    String str() {
        String v = s;
        if (v == null && raw != null) {
            v = new String(raw, rawOff, raw.length - rawOff, StandardCharsets.UTF_8);
            s = v;
        }
        return v;
    }

    float asFloat() {
        return kind <= LONG ? (float) l : (float) d;
    }

    double asDouble() {
        return kind <= LONG ? (double) l : d;
    }

    /** Equality of two {@link #STRING} values, comparing UTF-8 bytes when both sides have them. */
    static boolean stringsEqual(Val a, Val x) {
        if (a.s != null && x.s != null) {
            return a.s.equals(x.s);
        }
        if (a.raw != null && x.raw != null) {
            return Arrays.equals(a.raw, a.rawOff, a.raw.length, x.raw, x.rawOff, x.raw.length);
        }
        String as = a.str();
        return as != null && as.equals(x.str());
    }

    /** Equality of a {@link #STRING} value with a literal given as characters and (if exact) UTF-8 bytes. */
    boolean equalsLiteral(String literal, byte[] literalUtf8) {
        if (s == null && raw != null && literalUtf8 != null) {
            return Arrays.equals(raw, rawOff, raw.length, literalUtf8, 0, literalUtf8.length);
        }
        return literal.equals(str());
    }

    @Override
    public String toString() {
        switch (kind) {
            case NULL: return "NULL";
            case BOOL: return Boolean.toString(b);
            case INT: return l + "(int)";
            case LONG: return l + "L";
            case FLOAT: return (float) d + "F";
            case DOUBLE: return d + "D";
            case STRING: return "'" + str() + "'";
            default: return "<other>";
        }
    }
}
