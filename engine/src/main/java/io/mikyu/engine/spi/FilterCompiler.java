package io.mikyu.engine.spi;

import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.TaskFilter;

/**
 * Turns a {@link FilterExpression}'s text back into a {@link TaskFilter}, where the data is: a broker receives a
 * filtered dequeue as text and evaluates it itself. Found with {@link java.util.ServiceLoader}: a jar on the
 * broker's class path registers its compilers in {@code META-INF/services/io.mikyu.engine.spi.FilterCompiler}
 * (the engine registers {@code header-equals}; the JMS provider can register its SQL-92 selectors).
 */
public interface FilterCompiler {

    /** The language this compiler reads, as in {@link FilterExpression#language()}. */
    String language();

    /**
     * The filter the text describes; equal texts must give equal filters (the queue keeps one index per filter).
     *
     * @throws IllegalArgumentException if the text is not valid in this language, saying why
     */
    TaskFilter compile(String text);
}
