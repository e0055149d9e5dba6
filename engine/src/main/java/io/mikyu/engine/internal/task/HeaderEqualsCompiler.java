package io.mikyu.engine.internal.task;

import io.mikyu.engine.HeaderEquals;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.spi.FilterCompiler;

/** The engine's own filter language, {@link HeaderEquals#LANGUAGE}, for brokers. */
public final class HeaderEqualsCompiler implements FilterCompiler {

    @Override
    public String language() {
        return HeaderEquals.LANGUAGE;
    }

    @Override
    public TaskFilter compile(String text) {
        return HeaderEquals.parse(text);
    }
}
