package io.mikyu.kafka.support;

import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The test cluster is what the tests say they run on: 3 brokers, one controller, share groups on. */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class ClusterStartTest {

    @Test
    void threeBrokersWithShareGroupsAndReplicatedTopics() throws Exception {
        System.out.println("cluster start: " + KafkaTestCluster.startMillis() + " ms");
        try (Admin admin = KafkaTestCluster.get().admin()) {
            assertThat(admin.describeCluster().nodes().get()).hasSize(3);
            assertThat(admin.describeFeatures().featureMetadata().get().finalizedFeatures().get("share.version")
                    .maxVersionLevel()).isEqualTo((short) 2);
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("start-check", 1, (short) 3)
                    .configs(Map.of()))).all().get();
            assertThat(admin.describeTopics(List.of("start-check")).allTopicNames().get().get("start-check")
                    .partitions().get(0).replicas()).hasSize(3);
        }
    }
}
