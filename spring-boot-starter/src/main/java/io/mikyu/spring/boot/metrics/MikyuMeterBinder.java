package io.mikyu.spring.boot.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.mikyu.jms.metrics.JmsMetrics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gives the application's registry the JMS provider's meters ({@code mikyu.jms.*}) and those of the store it
 * embeds ({@code mikyu.engine.*}, {@code mikyu.queue.*}, {@code mikyu.group.lag}), counted once also when the
 * registry is in Micrometer's global registry too; {@link #close()} takes them away again.
 */
public class MikyuMeterBinder implements MeterBinder, AutoCloseable {

    private final Set<MeterRegistry> bound = ConcurrentHashMap.newKeySet();

    @Override
    public void bindTo(MeterRegistry registry) {
        JmsMetrics.addRegistry(registry);
        bound.add(registry);
    }

    @Override
    public void close() {
        bound.forEach(JmsMetrics::removeRegistry);
        bound.clear();
    }
}
