package io.mikyu.jms.classic;

import io.mikyu.kafka.jms.KafkaJmsExclusions;
import io.mikyu.kafka.jms.KafkaJmsTest;
import io.mikyu.kafka.support.KafkaTestCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JMS provider's {@link TopicSubscriptionTest} on {@code kafka://} (a store of its own per test on the in-JVM cluster); the
 * tests the backend cannot pass are skipped by {@code kafka-jms-exclusions.txt}, each with its reason.
 */
@Tag("kafka")
@Timeout(300)
@ExtendWith({KafkaTestCluster.Shared.class, KafkaJmsExclusions.class})
class KafkaTopicSubscriptionTest extends TopicSubscriptionTest {

    private final String store = KafkaTestCluster.uri();

    @Override
    protected String url(String options) {
        return store + options;
    }

    @Override
    protected long waitMillis() {
        return KafkaJmsTest.RECEIVE_MS;
    }
}
