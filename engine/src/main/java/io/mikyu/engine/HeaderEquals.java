package io.mikyu.engine;

import java.util.Map;
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
        // Sorted, so that equal filters have equal texts.
        return new FilterExpression(LANGUAGE, UrlQuery.encode(new TreeMap<>(expected)));
    }

    /**
     * Reads the text of {@link #expression()} ({@link UrlQuery}'s rules: a header named twice is refused, since no
     * header has two last values).
     */
    public static HeaderEquals parse(String text) {
        return new HeaderEquals(UrlQuery.parse(text, LANGUAGE + " filter " + text));
    }
}
