package io.mikyu.it;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Waits until a message-driven bean's topic subscription exists. Its activation connects on the server's
 * WorkManager after the deployment is up, and a message published before a subscription exists is not in it; so
 * probes are published, one a second, until the bean has been given one.
 */
final class SubscriptionProbe {

    static final String PREFIX = "probe-";
    private static final Duration EACH = Duration.ofSeconds(1);

    private SubscriptionProbe() {
    }

    static void awaitSubscribed(AppClient publisher, String topic, AppClient subscriber)
            throws IOException, InterruptedException {
        String run = PREFIX + UUID.randomUUID() + "-";
        long deadline = System.nanoTime() + AppClient.TIMEOUT.toNanos();
        for (int i = 1; System.nanoTime() < deadline; i++) {
            publisher.post("publish", "to", topic, "body", run + i);
            try {
                await("probe " + i + " delivered").atMost(EACH).pollInterval(Duration.ofMillis(100))
                        .until(() -> subscriber.lines("deliveries").stream().anyMatch(l -> l.startsWith(run)));
                return;
            } catch (ConditionTimeoutException notYet) {
                // published before the subscription existed: another probe
            }
        }
        throw new AssertionError("no probe delivered on the " + topic + " subscription in " + AppClient.TIMEOUT
                + "; " + ServerThreads.dump("no " + topic + " subscription"));
    }
}
