package io.mikyu.engine;

import java.util.Objects;

/**
 * A {@link TaskFilter} written as text in a named language, so that it can travel to a broker and be evaluated
 * there, next to the data, rather than by shipping every task to the client. The broker compiles it with the
 * {@link io.mikyu.engine.spi.FilterCompiler} registered for {@code language}.
 *
 * @param language which compiler reads the text, e.g. {@code header-equals} or {@code jms-selector}
 * @param text     the filter in that language
 */
public record FilterExpression(String language, String text) {

    public FilterExpression {
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(text, "text");
        if (language.isBlank()) {
            throw new IllegalArgumentException("a filter expression needs a language");
        }
    }
}
