package io.mikyu.engine.internal.body;

import java.util.Objects;

/** A published body: its id (32 hex digits) and its length in bytes. What a record's headers carry. */
public record BodyRef(String id, long length) {

    /** Header naming the body a record refers to. */
    public static final String ID_HEADER = "mikyu.body.id";
    /** Header with the body's length in bytes, decimal. */
    public static final String LENGTH_HEADER = "mikyu.body.length";

    public BodyRef {
        Objects.requireNonNull(id, "id");
        if (!isValidId(id)) {
            throw new IllegalArgumentException("not a body id (32 lowercase hex digits): '" + id + "'");
        }
        if (length < 0) {
            throw new IllegalArgumentException("body length must not be negative: " + length);
        }
    }

    /** Whether {@code id} has the form of a body id, so that it may be used as a file name. */
    public static boolean isValidId(String id) {
        if (id == null || id.length() != 32) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
