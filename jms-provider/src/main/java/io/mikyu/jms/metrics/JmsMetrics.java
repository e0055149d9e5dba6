package io.mikyu.jms.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The provider's meters: open connections, sessions, producers and consumers ({@code mikyu.jms.connections} ...),
 * and counters of sends, deliveries and redeliveries, and of messages a non-durable subscription discarded after
 * {@code maxAttempts} deliveries ({@code mikyu.jms.discarded}: such a subscription has no dead-letter queue to move
 * them to). They, and the meters of the engines the provider embeds ({@code mikyu.engine.*}, {@code mikyu.queue.*}),
 * reach Micrometer's global registry (add your registry to {@link Metrics#globalRegistry}) and every registry given
 * to {@link #addRegistry}: each once, also a registry reachable both ways.
 */
public final class JmsMetrics {

    /**
     * Where the meters are registered: a composite of the global registry and the added ones. Micrometer's composites
     * forward to the set of their non-composite descendants, which is why a registry reachable twice counts once.
     */
    private static final CompositeMeterRegistry PROVIDER_REGISTRY = new CompositeMeterRegistry();

    static {
        PROVIDER_REGISTRY.add(Metrics.globalRegistry);
    }

    public static final JmsMetrics GLOBAL = new JmsMetrics(PROVIDER_REGISTRY);

    /** The provider's meters, and those of the engines it opens from now on or has open, also go to {@code registry}. */
    public static void addRegistry(MeterRegistry registry) {
        PROVIDER_REGISTRY.add(registry);
    }

    /** Stops what {@link #addRegistry} started; the meters already in {@code registry} stay there, no longer updated. */
    public static void removeRegistry(MeterRegistry registry) {
        PROVIDER_REGISTRY.remove(registry);
    }

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
