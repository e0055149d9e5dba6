package io.mikyu.spring.boot.roundtrip;

import io.mikyu.spring.boot.embedded.MikyuEmbeddedStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The same application against a mikyu daemon in a child JVM: one property changed. */
@SpringBootTest(classes = OrdersApplication.class, properties = "spring.mikyu.reconnect=1s")
@DirtiesContext
@Timeout(180)
class DaemonRoundTripTest {

    @TempDir
    static Path data;

    private static DaemonProcess daemon;

    @DynamicPropertySource
    static void daemon(DynamicPropertyRegistry registry) throws Exception {
        daemon = DaemonProcess.start(data);
        registry.add("spring.mikyu.url", daemon::url);
    }

    @AfterAll
    static void stopDaemon() {
        if (daemon != null) {
            daemon.close();
        }
    }

    @Autowired
    JmsTemplate jms;

    @Autowired
    OrdersApplication.OrderListener listener;

    @Autowired
    ApplicationContext context;

    @Autowired
    @Qualifier("mikyuHealthIndicator")
    HealthIndicator health;

    @Test
    void aMessageGoesThroughTheDaemonAndHealthFollowsIt() throws Exception {
        assertThat(context.getBeanNamesForType(MikyuEmbeddedStore.class)).isEmpty();
        jms.convertAndSend("orders", "3 croissants");
        assertThat(listener.received.poll(60, TimeUnit.SECONDS)).isEqualTo("3 croissants");

        Health up = health.health();
        assertThat(up.getStatus()).isEqualTo(Status.UP);
        assertThat(up.getDetails()).containsEntry("mode", "daemon").containsEntry("broker", daemon.url());

        daemon.close();
        Health down = health.health();
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
        assertThat(down.getDetails()).containsEntry("broker", daemon.url()).containsKey("error");
    }
}
