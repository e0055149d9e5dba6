package io.mikyu.kafka.support;

import io.mikyu.engine.Mikyu;

import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.apache.kafka.server.common.ShareVersion;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-JVM KRaft cluster for the tests: 3 brokers and 1 controller, every topic (the group and share-group state
 * topics too) replicated 3 times with {@code min.insync.replicas=2}, share groups on ({@code share.version=2}) and
 * the minimum acquisition lock lowered to one second so that lease expiry is quick to see. One cluster serves every
 * test class of the run (started on first use, stopped when the last test of the run is done, through
 * {@link Shared}): starting one takes tens of seconds.
 */
public final class KafkaTestCluster {

    /**
     * Stops the cluster once all tests of the run are done: a test class that uses the cluster is extended with
     * this. (Not a JVM shutdown hook: stopping brokers takes longer than the test runner waits for a JVM to end.)
     */
    public static final class Shared implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).getOrComputeIfAbsent(
                    KafkaTestCluster.class.getName(), key -> (AutoCloseable) KafkaTestCluster::stop);
        }
    }

    /** The lock duration tests give their task queues: the cluster's minimum. */
    public static final int MIN_LOCK_MS = 1000;

    private static KafkaClusterTestKit cluster;
    private static long startMillis;
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    private KafkaTestCluster() {
    }

    /** The running cluster, started on first use. */
    public static synchronized KafkaClusterTestKit get() {
        if (cluster == null) {
            long start = System.nanoTime();
            cluster = start3Brokers1Controller();
            startMillis = (System.nanoTime() - start) / 1_000_000;
            System.out.println("in-JVM Kafka cluster (3 brokers, 1 controller) started in " + startMillis + " ms");
        }
        return cluster;
    }

    /** Stops the cluster if it runs (a runner that is not JUnit's, such as the TCK's kafka mode, calls this at its end). */
    public static synchronized void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    /** How long the cluster took to start. */
    public static synchronized long startMillis() {
        get();
        return startMillis;
    }

    /** {@code kafka://<bootstrap>?prefix=<unique>}: a store of its own on the shared cluster, for one test. */
    public static String uri() {
        return uri("t" + PREFIXES.incrementAndGet());
    }

    /** {@code kafka://<bootstrap>?prefix=<prefix>}: the store of that prefix on the shared cluster. */
    public static String uri(String prefix) {
        return "kafka://" + get().bootstrapServers() + "?prefix=" + prefix
                + "&maxDeliveryCountLimit=" + MAX_DELIVERY_COUNT_LIMIT;
    }

    /** A store of its own on the shared cluster. */
    public static Mikyu dial() {
        return Mikyu.dial(uri());
    }

    static final int MAX_DELIVERY_COUNT_LIMIT = 20;

    private static KafkaClusterTestKit start3Brokers1Controller() {
        try {
            MetadataVersion version = MetadataVersion.latestProduction();
            Map<String, Short> features = new HashMap<>();
            for (Feature f : Feature.PRODUCTION_FEATURES) {
                features.put(f.featureName(), f.defaultLevel(version));
            }
            features.put(ShareVersion.FEATURE_NAME, ShareVersion.SV_2.featureLevel());
            features.remove(Feature.KRAFT_VERSION.featureName());
            BootstrapMetadata bootstrap = BootstrapMetadata.fromVersions(version, features, "mikyu tests");
            TestKitNodes nodes = new TestKitNodes.Builder(bootstrap)
                    .setNumBrokerNodes(3)
                    .setNumControllerNodes(1)
                    .build();
            KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(nodes)
                    .setConfigProp("default.replication.factor", "3")
                    .setConfigProp("min.insync.replicas", "2")
                    .setConfigProp("offsets.topic.replication.factor", "3")
                    .setConfigProp("transaction.state.log.replication.factor", "3")
                    .setConfigProp("transaction.state.log.min.isr", "2")
                    .setConfigProp("share.coordinator.state.topic.replication.factor", "3")
                    .setConfigProp("share.coordinator.state.topic.min.isr", "2")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("group.share.min.record.lock.duration.ms", Integer.toString(MIN_LOCK_MS))
                    .setConfigProp("group.share.max.delivery.count.limit", Integer.toString(MAX_DELIVERY_COUNT_LIMIT))
                    .build();
            kit.format();
            kit.startup();
            kit.waitForReadyBrokers();
            return kit;
        } catch (Exception e) {
            throw new IllegalStateException("the in-JVM Kafka cluster did not start", e);
        }
    }
}
