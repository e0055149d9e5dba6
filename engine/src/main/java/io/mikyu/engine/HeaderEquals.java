package io.mikyu.engine;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Tasks whose header {@code NAME} (its last value, as UTF-8) is {@code VALUE}, for every pair given. A record, so
 * equal filters are equal and the queue keeps one index for them; expressible as text ({@value #LANGUAGE}), so it
 * also works against a broker.
 */
public record HeaderEquals(Map<String, String> expected) implements TaskFilter {

    /** The language of {@link #expression()}: {@code name=value} pairs joined by {@code &}, URL-encoded. */
    public static final String LANGUAGE = "header-equals";

    public HeaderEquals {
        expected = Map.copyOf(expected);
    }

    public static HeaderEquals of(String name, String value) {
        return new HeaderEquals(Map.of(name, value));
    }

    @Override
    public boolean matches(TaskView task) {
        for (Map.Entry<String, String> e : expected.entrySet()) {
            if (!e.getValue().equals(task.headers().getString(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public FilterExpression expression() {
        StringJoiner text = new StringJoiner("&");
        // Sorted, so that equal filters have equal texts.
        new TreeMap<>(expected).forEach((name, value) -> text.add(encode(name) + "=" + encode(value)));
        return new FilterExpression(LANGUAGE, text.toString());
    }

    /** Reads the text of {@link #expression()}. */
    public static HeaderEquals parse(String text) {
        Map<String, String> expected = new LinkedHashMap<>();
        if (!text.isEmpty()) {
            for (String pair : text.split("&", -1)) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("header-equals filter: '" + pair + "' is not name=value");
                }
                expected.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
            }
        }
        return new HeaderEquals(expected);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
