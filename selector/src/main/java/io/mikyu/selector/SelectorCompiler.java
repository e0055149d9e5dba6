package io.mikyu.selector;

import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.spi.FilterCompiler;

/**
 * Compiles JMS message selectors sent to a broker ({@link Selector#LANGUAGE}). Registered in
 * {@code META-INF/services/io.mikyu.engine.spi.FilterCompiler}, so a broker with this jar on its class path
 * evaluates the selectors of remote consumers next to the data.
 */
public final class SelectorCompiler implements FilterCompiler {

    @Override
    public String language() {
        return Selector.LANGUAGE;
    }

    @Override
    public TaskFilter compile(String text) {
        try {
            return Selector.compile(text);
        } catch (SelectorSyntaxException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
