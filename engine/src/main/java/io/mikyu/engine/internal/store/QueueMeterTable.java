package io.mikyu.engine.internal.store;

import io.micrometer.core.instrument.MeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.spi.QueueMeterSource;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters of every open queue of a store, walked family by family when scraped ({@link QueueMeterSource}).
 * Adding a queue is one set insertion, whatever the number of queues; registering two dozen Micrometer meters a
 * queue instead took a registry lock each and about 10 KiB of heap a queue.
 */
final class QueueMeterTable implements QueueMeterSource {

    private static final QueueMeterFamily[] FAMILIES = QueueMeterFamily.values();

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

    @Override
    public void visit(Visitor visitor) {
        for (QueueMeterFamily family : FAMILIES) {
            visitor.family(family.family());
            for (QueueMeters q : queues) {
                q.visit(family, visitor);
            }
        }
    }
}
