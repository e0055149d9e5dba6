package io.mikyu.cli.bench;

import java.util.Locale;

/**
 * Writes one flat JSON object, in insertion order. The bench prints its results this way so that scripts can
 * read a single line without the CLI depending on a JSON library.
 */
public final class JsonObject {

    private final StringBuilder json = new StringBuilder("{");

    public JsonObject put(String name, String value) {
        key(name);
        if (value == null) {
            json.append("null");
        } else {
            quote(value);
        }
        return this;
    }

    public JsonObject put(String name, long value) {
        key(name);
        json.append(value);
        return this;
    }

    /** Doubles are written with up to 3 decimals; NaN and infinities, which JSON lacks, as {@code null}. */
    public JsonObject put(String name, double value) {
        key(name);
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            json.append("null");
        } else {
            String text = String.format(Locale.ROOT, "%.3f", value);
            // 12.500 -> 12.5, 3.000 -> 3
            text = text.replaceAll("0+$", "").replaceAll("\\.$", "");
            json.append(text);
        }
        return this;
    }

    public JsonObject put(String name, boolean value) {
        key(name);
        json.append(value);
        return this;
    }

    @Override
    public String toString() {
        return json + "}";
    }

    private void key(String name) {
        if (json.length() > 1) {
            json.append(',');
        }
        quote(name);
        json.append(':');
    }

    private void quote(String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
