package io.mikyu.spring.boot.roundtrip;

import io.micrometer.core.instrument.MeterRegistry;
import io.mikyu.spring.boot.embedded.MikyuEmbeddedStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** JmsTemplate to @JmsListener through the embedded store, with the starter's defaults. */
@SpringBootTest(classes = OrdersApplication.class)
@DirtiesContext
@Timeout(120)
class EmbeddedRoundTripTest {

    @TempDir
    static Path store;

    @DynamicPropertySource
    static void store(DynamicPropertyRegistry registry) {
        registry.add("spring.mikyu.embedded.directory", () -> store.resolve("mikyu-data").toString());
    }

    @Autowired
    JmsTemplate jms;

    @Autowired
    OrdersApplication.OrderListener listener;

    @Autowired
    MikyuEmbeddedStore embeddedStore;

    @Autowired
    @Qualifier("mikyuHealthIndicator")
    HealthIndicator health;

    @Autowired
    MeterRegistry meters;

    @Test
    void aMessageSentWithJmsTemplateReachesTheListenerAndIsCounted() throws Exception {
        double deliveries = meters.counter("mikyu.jms.deliveries").count();
        jms.convertAndSend("orders", "2 coffees");
        jms.convertAndSend("orders", "1 tea");

        assertThat(listener.received.poll(60, TimeUnit.SECONDS)).isEqualTo("2 coffees");
        assertThat(listener.received.poll(60, TimeUnit.SECONDS)).isEqualTo("1 tea");
        assertThat(embeddedStore.engine().location())
                .isEqualTo(store.resolve("mikyu-data").toRealPath().toString());
        assertThat(health.health().getStatus()).isEqualTo(Status.UP);
        // counted when onMessage returns: wait until the listener's thread has got there
        await("both deliveries counted").atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(meters.counter("mikyu.jms.deliveries").count() - deliveries).isEqualTo(2));
    }
}
