package io.mikyu.broker.server;

import io.mikyu.engine.FilterExpression;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.spi.FilterCompiler;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The filter languages this broker evaluates: every {@link FilterCompiler} on its class path. Compiled filters
 * are kept by their expression, so that clients sending the same text share one filter, and so one index in
 * the task queue, without compiling it again for each dequeue.
 */
final class FilterCompilers {

    /** Enough for every selector of a busy broker; past it the cache starts over rather than grow without end. */
    private static final int MAX_CACHED = 10_000;

    private final Map<String, FilterCompiler> byLanguage;
    private final ConcurrentHashMap<FilterExpression, TaskFilter> compiled = new ConcurrentHashMap<>();

    private FilterCompilers(Map<String, FilterCompiler> byLanguage) {
        this.byLanguage = byLanguage;
    }

    static FilterCompilers load() {
        Map<String, FilterCompiler> byLanguage = new TreeMap<>();
        for (FilterCompiler c : ServiceLoader.load(FilterCompiler.class, FilterCompilers.class.getClassLoader())) {
            byLanguage.putIfAbsent(c.language(), c);
        }
        return new FilterCompilers(byLanguage);
    }

    /** The filter, or {@code null} for none; {@link IllegalArgumentException} for an unknown language or bad text. */
    TaskFilter compile(FilterExpression expression) {
        if (expression == null) {
            return null;
        }
        TaskFilter filter = compiled.get(expression);
        if (filter != null) {
            return filter;
        }
        FilterCompiler compiler = byLanguage.get(expression.language());
        if (compiler == null) {
            throw new IllegalArgumentException("this broker has no compiler for filters in '" + expression.language()
                    + "' (it has " + byLanguage.keySet() + "); put a jar registering an"
                    + " io.mikyu.engine.spi.FilterCompiler for it on the broker's class path");
        }
        filter = compiler.compile(expression.text());
        if (compiled.size() >= MAX_CACHED) {
            compiled.clear();
        }
        compiled.putIfAbsent(expression, filter);
        return filter;
    }
}
