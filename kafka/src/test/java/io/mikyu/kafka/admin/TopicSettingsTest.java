package io.mikyu.kafka.admin;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.TaskQueueConfig;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TopicSettingsTest {

    @Test
    void aLogQueuesSettingsRoundTripThroughTopicConfiguration() {
        LogQueueConfig config = LogQueueConfig.defaults().withRetentionAge(Duration.ofDays(2)).withRetentionBytes(1 << 30)
                .withCompaction(true).withTombstoneRetention(Duration.ofMinutes(3)).withSegmentBytes(16L << 20);
        Map<String, String> topic = TopicSettings.logTopic(config);
        assertThat(topic).containsEntry("retention.ms", Long.toString(Duration.ofDays(2).toMillis()))
                .containsEntry("cleanup.policy", "compact").containsEntry("delete.retention.ms", "180000");
        assertThat(TopicSettings.logConfig(topic, Durability.ASYNC)).isEqualTo(config);
    }

    @Test
    void keptForeverAndSmallSegmentsBecomeWhatKafkaTakes() {
        Map<String, String> topic = TopicSettings.logTopic(LogQueueConfig.defaults().withSegmentBytes(4096));
        assertThat(topic).containsEntry("retention.ms", "-1").containsEntry("retention.bytes", "-1")
                .containsEntry("cleanup.policy", "delete").containsEntry("segment.bytes", Long.toString(1 << 20));
        assertThat(TopicSettings.logConfig(topic, Durability.SYNC).retentionAge()).isNull();
    }

    @Test
    void aTaskQueuesAttemptsAndLeaseAreItsShareGroupsLimitAndLock() {
        TaskQueueConfig config = TaskQueueConfig.defaults().withMaxAttempts(4).withDefaultLease(Duration.ofSeconds(20));
        Map<String, String> group = TopicSettings.taskShareGroup(config, 10);
        assertThat(group).containsEntry("share.delivery.count.limit", "5")
                .containsEntry("share.record.lock.duration.ms", "20000");
        TaskQueueConfig back = TopicSettings.taskConfig(group, 10);
        assertThat(back.maxAttempts()).isEqualTo(4);
        assertThat(back.defaultLease()).isEqualTo(Duration.ofSeconds(20));
        // Above the cluster's cap the limit is the cap.
        assertThat(TopicSettings.taskShareGroup(config.withMaxAttempts(50), 10))
                .containsEntry("share.delivery.count.limit", "10");
    }
}
