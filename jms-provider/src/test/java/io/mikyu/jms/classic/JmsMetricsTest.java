package io.mikyu.jms.classic;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.jms.MikyuConnectionFactory;
import io.mikyu.jms.metrics.JmsMetrics;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The provider's meters count what happens, in any registry added to Micrometer's global one. */
@Timeout(30)
class JmsMetricsTest {

    @TempDir
    Path data;

    @Test
    void connectionsSessionsSendsDeliveriesAndRedeliveriesAreCounted() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        assertThat(((CompositeMeterRegistry) JmsMetrics.GLOBAL.registry()).getRegistries())
                .contains(Metrics.globalRegistry);
        try {
            double sends = registry.counter("mikyu.jms.sends").count();
            double deliveries = registry.counter("mikyu.jms.deliveries").count();
            double redeliveries = registry.counter("mikyu.jms.redeliveries").count();
            double connections = registry.get("mikyu.jms.connections").gauge().value();
            try (Connection c = new MikyuConnectionFactory("vm://" + data).createConnection()) {
                c.start();
                assertThat(registry.get("mikyu.jms.connections").gauge().value()).isEqualTo(connections + 1);
                Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                Queue q = s.createQueue("metered");
                s.createProducer(q).send(s.createTextMessage("x"));
                s.createProducer(q).send(s.createTextMessage("y"));
                MessageConsumer consumer = s.createConsumer(q);
                consumer.receive(5_000);
                s.recover();
                consumer.receive(5_000).acknowledge();
                consumer.receive(5_000).acknowledge();
            }
            assertThat(registry.counter("mikyu.jms.sends").count() - sends).isEqualTo(2);
            assertThat(registry.counter("mikyu.jms.deliveries").count() - deliveries).isEqualTo(3);
            assertThat(registry.counter("mikyu.jms.redeliveries").count() - redeliveries).isEqualTo(1);
            assertThat(registry.get("mikyu.jms.connections").gauge().value()).isEqualTo(connections);
        } finally {
            Metrics.removeRegistry(registry);
        }
    }

    @Test
    void aRegistryGivenToTheProviderHasItsAndTheEmbeddedEnginesMetersCountedOnceAlsoWhenGlobalToo() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        JmsMetrics.addRegistry(registry);
        try {
            assertThat(Metrics.globalRegistry.getRegistries()).doesNotContain(registry);
            double sends = registry.counter("mikyu.jms.sends").count();
            try (Connection c = new MikyuConnectionFactory("vm://" + data).createConnection()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Queue q = s.createQueue("bound");
                s.createProducer(q).send(s.createTextMessage("x"));
                s.createProducer(q).send(s.createTextMessage("y"));
                assertThat(registry.counter("mikyu.jms.sends").count() - sends).isEqualTo(2);
                assertThat(registry.get("mikyu.queue.depth").tag("queue", "bound").gauge().value()).isEqualTo(2);
                assertThat(registry.get("mikyu.engine.commits").functionCounter().count()).isPositive();

                // reachable twice (through the global registry as well): each send is still counted once
                Metrics.addRegistry(registry);
                s.createProducer(q).send(s.createTextMessage("z"));
                assertThat(registry.counter("mikyu.jms.sends").count() - sends).isEqualTo(3);
            } finally {
                Metrics.removeRegistry(registry);
            }
        } finally {
            JmsMetrics.removeRegistry(registry);
        }
        double after = registry.counter("mikyu.jms.sends").count();
        try (Connection c = new MikyuConnectionFactory("vm://" + data).createConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createProducer(s.createQueue("bound")).send(s.createTextMessage("unseen"));
        }
        assertThat(registry.counter("mikyu.jms.sends").count()).isEqualTo(after);
    }

    @Test
    void aNonDurableSubscriptionThatGivesUpOnAMessageCountsIt() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        try {
            double discarded = registry.counter("mikyu.jms.discarded").count();
            try (Connection c = new MikyuConnectionFactory("vm://" + data + "?maxAttempts=2").createConnection()) {
                c.start();
                Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                Topic prices = s.createTopic("prices");
                MessageConsumer subscriber = s.createConsumer(prices);
                s.createProducer(prices).send(s.createTextMessage("poison"));
                assertThat(subscriber.receive(5_000)).isNotNull();
                s.recover();
                assertThat(subscriber.receive(5_000).getJMSRedelivered()).isTrue();
                s.recover();
                // the second delivery was the last: no dead-letter queue for a non-durable subscription
                assertThat(subscriber.receive(200)).isNull();
            }
            assertThat(registry.counter("mikyu.jms.discarded").count() - discarded).isEqualTo(1);
        } finally {
            Metrics.removeRegistry(registry);
        }
    }
}
