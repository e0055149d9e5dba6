package io.mikyu.engine.internal.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.spi.QueueMeterSource;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters of every open queue of a store, walked family by family when scraped ({@link QueueMeterSource}).
 * Adding a queue is one set insertion, whatever the number of queues; registering two dozen Micrometer meters a
 * queue instead took a registry lock each and about 10 KiB of heap a queue.
 */
final class QueueMeterTable implements QueueMeterSource {

    private static final QueueMeterFamily[] FAMILIES = QueueMeterFamily.values();
    /** The families a scrape writes unless asked for the detail. */
    private static final QueueMeterFamily[] ESSENTIAL = Arrays.stream(FAMILIES)
            .filter(f -> !f.family().detail()).toArray(QueueMeterFamily[]::new);

    private final Set<QueueMeters> queues = ConcurrentHashMap.newKeySet();
    private final MeterRegistry registry;

    QueueMeterTable(EngineConfig config) {
        this.registry = config.perQueueMeters() ? config.meterRegistry() : null;
    }

    /** Where each queue also registers its meters; {@code null}: nowhere, they are only read through here. */
    MeterRegistry registry() {
        return registry;
    }

    void add(QueueMeters meters) {
        queues.add(meters);
    }

    void remove(QueueMeters meters) {
        queues.remove(meters);
    }

    /**
     * Reads every queue's values first, queue by queue (one lock of a task queue for its four task gauges), then
     * passes them on family by family, as the text format groups them.
     */
    @Override
    public void visit(Visitor visitor, boolean detail) {
        QueueMeterFamily[] families = detail ? FAMILIES : ESSENTIAL;
        QueueMeters[] open = queues.toArray(new QueueMeters[0]);
        double[] values = new double[open.length * families.length];
        for (int q = 0; q < open.length; q++) {
            open[q].snapshot(families, values, q * families.length);
        }
        for (int f = 0; f < families.length; f++) {
            visitor.family(families[f].family());
            for (int q = 0; q < open.length; q++) {
                open[q].visit(families[f], values[q * families.length + f], visitor);
            }
        }
    }
}
