package io.mikyu.jms.classic;

import io.mikyu.kafka.jms.KafkaJmsExclusions;
import io.mikyu.kafka.jms.KafkaJmsTest;
import io.mikyu.kafka.support.KafkaTestCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The JMS provider's backend-neutral tests on {@code kafka://}: a store of its own per test on the shared in-JVM
 * cluster (its topic prefix is the test's directory name), receives that wait long enough for a share consumer to
 * join its group, and the tests the backend cannot pass skipped by {@code kafka-jms-exclusions.txt}, each with its
 * reason. A suite of the provider runs on Kafka as {@code class KafkaXTest extends XTest implements OnKafka {}}.
 */
@Tag("kafka")
@Timeout(300)
@ExtendWith({KafkaTestCluster.Shared.class, KafkaJmsExclusions.class})
interface OnKafka extends TestStore {

    @Override
    default String url(String options) {
        return KafkaTestCluster.uri(data().getFileName().toString()) + options;
    }

    @Override
    default long waitMillis() {
        return KafkaJmsTest.RECEIVE_MS;
    }

    @Override
    default String otherStoreUrl(String options) {
        return KafkaTestCluster.uri(data().getFileName() + "-other") + "&" + options;
    }
}
