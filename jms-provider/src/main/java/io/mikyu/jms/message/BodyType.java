package io.mikyu.jms.message;

import java.util.Locale;

/** The message body kinds and their wire names (header {@code mikyu.jms.body}). */
public enum BodyType {
    MESSAGE, TEXT, BYTES, MAP, STREAM, OBJECT;

    private final String wireName = name().toLowerCase(Locale.ROOT);

    public String wireName() {
        return wireName;
    }

    /** The body type of a wire name, or {@code null} if unknown. */
    public static BodyType fromWireName(String name) {
        for (BodyType type : values()) {
            if (type.wireName.equals(name)) {
                return type;
            }
        }
        return null;
    }
}
