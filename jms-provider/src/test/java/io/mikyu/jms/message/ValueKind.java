package io.mikyu.jms.message;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.provider.Arguments;

/**
 * The value types of the specification's conversion tables, each with a sample value, and the tables themselves:
 * Table 3-2 (properties: no char, no byte[]) and Table 3-7 (StreamMessage and MapMessage).
 */
enum ValueKind {
    BOOLEAN(true),
    BYTE((byte) 1),
    SHORT((short) 2),
    CHAR('c'),
    INT(3),
    LONG(4L),
    FLOAT(5.5f),
    DOUBLE(6.5d),
    STRING("7"),
    BYTES(new byte[] {8, 9});

    static final Set<ValueKind> PROPERTY_KINDS = EnumSet.complementOf(EnumSet.of(CHAR, BYTES));

    final Object sample;

    ValueKind(Object sample) {
        this.sample = sample;
    }

    /** Table 3-7 (and, restricted to PROPERTY_KINDS, Table 3-2): may a value of {@code this} be read as {@code target}? */
    boolean readableAs(ValueKind target) {
        if (this == target) {
            return true;
        }
        return switch (this) {
            case BOOLEAN, CHAR, LONG, DOUBLE -> target == STRING;
            case BYTE -> EnumSet.of(SHORT, INT, LONG, STRING).contains(target);
            case SHORT -> EnumSet.of(INT, LONG, STRING).contains(target);
            case INT -> EnumSet.of(LONG, STRING).contains(target);
            case FLOAT -> EnumSet.of(DOUBLE, STRING).contains(target);
            case STRING -> target != CHAR && target != BYTES;
            case BYTES -> false;
        };
    }

    /** The value a {@code this} sample reads as, for an allowed conversion. */
    Object expectedAs(ValueKind target) {
        if (this == target) {
            return sample;
        }
        if (target == STRING) {
            return String.valueOf(sample);
        }
        if (this == STRING) {
            String s = (String) sample;
            return switch (target) {
                case BOOLEAN -> Boolean.valueOf(s);
                case BYTE -> Byte.valueOf(s);
                case SHORT -> Short.valueOf(s);
                case INT -> Integer.valueOf(s);
                case LONG -> Long.valueOf(s);
                case FLOAT -> Float.valueOf(s);
                case DOUBLE -> Double.valueOf(s);
                default -> throw new IllegalArgumentException(target.name());
            };
        }
        Number n = (Number) sample;
        return switch (target) {
            case SHORT -> n.shortValue();
            case INT -> n.intValue();
            case LONG -> n.longValue();
            case DOUBLE -> n.doubleValue();
            default -> throw new IllegalArgumentException(this + " -> " + target);
        };
    }

    /** Every (source, target, allowed) pair among {@code kinds}. */
    static List<Arguments> matrix(Set<ValueKind> kinds) {
        List<Arguments> out = new ArrayList<>();
        for (ValueKind source : kinds) {
            for (ValueKind target : kinds) {
                out.add(Arguments.of(source, target, source.readableAs(target)));
            }
        }
        return out;
    }
}
