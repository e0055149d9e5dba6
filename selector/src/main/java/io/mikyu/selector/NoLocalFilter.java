package io.mikyu.selector;

import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskView;
import io.mikyu.engine.spi.FilterCompiler;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A noLocal subscription's filter: the message was not published by connection {@code connectionId} (its
 * {@value #CONNECTION_HEADER} header differs), and the selector matches. The header name is not a selector
 * identifier (identifiers have no dots), so the rule cannot be written in the selector itself; it travels to a
 * broker in a language of its own, {@value #LANGUAGE}: the connection id, one space, the selector text.
 *
 * <p>The rule is JMS's, not the selector language's, but it lives here: a broker evaluates it next to the data, and
 * a broker carries this module, not the JMS provider. The provider stamps the header and chooses the filter.
 */
public final class NoLocalFilter implements TaskFilter {

    public static final String LANGUAGE = "jms-selector-nolocal";
    /** The header a topic message carries with its producer's connection id. */
    public static final String CONNECTION_HEADER = "mikyu.jms.connection";

    private final String connectionId;
    private final byte[] connectionBytes;
    private final Selector selector;

    /** @param connectionId non-empty, without spaces */
    public NoLocalFilter(String connectionId, Selector selector) {
        if (connectionId == null || connectionId.isEmpty() || connectionId.indexOf(' ') >= 0) {
            throw new IllegalArgumentException("a connection id must be non-empty and without spaces: '"
                    + connectionId + "'");
        }
        this.connectionId = connectionId;
        this.connectionBytes = connectionId.getBytes(StandardCharsets.UTF_8);
        this.selector = Objects.requireNonNull(selector, "selector");
    }

    /** Reads {@link #expression()}'s text back. */
    public static NoLocalFilter parse(String text) throws SelectorSyntaxException {
        int space = text.indexOf(' ');
        if (space <= 0) {
            throw new SelectorSyntaxException("'" + text + "' is not '<connection id> <selector>'");
        }
        return new NoLocalFilter(text.substring(0, space), Selector.compile(text.substring(space + 1)));
    }

    @Override
    public boolean matches(TaskView task) {
        return !Arrays.equals(connectionBytes, task.headers().get(CONNECTION_HEADER))
                && (selector.isMatchAll() || selector.matches(task));
    }

    @Override
    public FilterExpression expression() {
        return new FilterExpression(LANGUAGE, connectionId + " " + selector.source());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NoLocalFilter f && connectionId.equals(f.connectionId) && selector.equals(f.selector);
    }

    @Override
    public int hashCode() {
        return connectionId.hashCode() * 31 + selector.hashCode();
    }

    @Override
    public String toString() {
        return "noLocal(" + connectionId + ") " + selector;
    }

    /** The broker's compiler for {@value #LANGUAGE}. */
    public static final class Compiler implements FilterCompiler {

        @Override
        public String language() {
            return LANGUAGE;
        }

        @Override
        public TaskFilter compile(String text) {
            try {
                return parse(text);
            } catch (SelectorSyntaxException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
    }
}
