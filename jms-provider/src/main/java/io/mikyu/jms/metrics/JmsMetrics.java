package io.mikyu.jms.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The provider's meters, in Micrometer's global registry (add your registry to {@link Metrics#globalRegistry};
 * the embedded engine registers its meters there too): open connections, sessions, producers and consumers
 * ({@code mikyu.jms.connections} ...), and counters of sends, deliveries and redeliveries, and of messages a
 * non-durable subscription discarded after {@code maxAttempts} deliveries ({@code mikyu.jms.discarded}: such a
 * subscription has no dead-letter queue to move them to).
 */
public final class JmsMetrics {

    public static final JmsMetrics GLOBAL = new JmsMetrics(Metrics.globalRegistry);

    public final AtomicInteger connections = new AtomicInteger();
    public final AtomicInteger sessions = new AtomicInteger();
    public final AtomicInteger producers = new AtomicInteger();
    public final AtomicInteger consumers = new AtomicInteger();
    private final Counter sends;
    private final Counter deliveries;
    private final Counter redeliveries;
    private final Counter discarded;
    private final MeterRegistry registry;

    JmsMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("mikyu.jms.connections", connections, AtomicInteger::get)
                .description("open JMS connections").register(registry);
        Gauge.builder("mikyu.jms.sessions", sessions, AtomicInteger::get)
                .description("open JMS sessions").register(registry);
        Gauge.builder("mikyu.jms.producers", producers, AtomicInteger::get)
                .description("open JMS producers").register(registry);
        Gauge.builder("mikyu.jms.consumers", consumers, AtomicInteger::get)
                .description("open JMS consumers").register(registry);
        sends = Counter.builder("mikyu.jms.sends").description("messages sent (committed for transactions)")
                .register(registry);
        deliveries = Counter.builder("mikyu.jms.deliveries").description("messages delivered to the application")
                .register(registry);
        redeliveries = Counter.builder("mikyu.jms.redeliveries")
                .description("deliveries of messages delivered before (JMSRedelivered)").register(registry);
        discarded = Counter.builder("mikyu.jms.discarded")
                .description("messages a non-durable subscription discarded after maxAttempts deliveries")
                .register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void sent(int n) {
        sends.increment(n);
    }

    /** A non-durable subscription gave up on a message: it has no dead-letter queue. */
    public void discarded() {
        discarded.increment();
    }

    public void delivered(boolean redelivered) {
        deliveries.increment();
        if (redelivered) {
            redeliveries.increment();
        }
    }
}
