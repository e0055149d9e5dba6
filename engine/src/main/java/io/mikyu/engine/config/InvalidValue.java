package io.mikyu.engine.config;

import io.mikyu.engine.Secrets;

/**
 * The wording of a refused value, shared by {@link Durations} and {@link ByteSizes} so that every surface reports a
 * mistake alike: {@code invalid duration flushInterval=soon (expected ...)} when the key is known,
 * {@code invalid duration 'soon' (expected ...)} when it is not (a command-line flag, whose name the command line
 * adds). A secret's value is never shown.
 */
final class InvalidValue {

    private InvalidValue() {
    }

    static IllegalArgumentException of(String kind, String key, String text, String expected) {
        return new IllegalArgumentException("invalid " + kind + " " + shown(key, text) + " (" + expected + ")");
    }

    /** {@code key=value}, or {@code 'value'} without a key; a secret's value as {@link Secrets#MASK}. */
    static String shown(String key, String text) {
        String value = text == null ? "" : text;
        return key == null ? "'" + value + "'" : key + "=" + Secrets.printable(key, value);
    }
}
