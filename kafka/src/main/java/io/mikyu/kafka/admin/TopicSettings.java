package io.mikyu.kafka.admin;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.TaskQueueConfig;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A queue's settings as Kafka topic configuration, and back: what the broker keeps for a mikyu queue.
 *
 * <p>Retention age and size become {@code retention.ms} and {@code retention.bytes}, compaction
 * {@code cleanup.policy=compact}, the tombstone retention {@code delete.retention.ms}, the segment size
 * {@code segment.bytes} (raised to Kafka's minimum of 1 MiB). A task queue's lease and attempts live in its share
 * group's configuration ({@link #taskShareGroup}, read back by {@link #taskConfig}); durability is always the
 * cluster's (every write waits for {@code acks=all}).
 */
public final class TopicSettings {

    /** Kafka refuses a smaller {@code segment.bytes}. */
    static final long MIN_KAFKA_SEGMENT_BYTES = 1024 * 1024;

    private TopicSettings() {
    }

    /** Topic configuration of a log queue. */
    public static Map<String, String> logTopic(LogQueueConfig config) {
        Map<String, String> topic = new LinkedHashMap<>();
        topic.put("retention.ms", config.retentionAge() == null ? "-1" : Long.toString(config.retentionAge().toMillis()));
        topic.put("retention.bytes", Long.toString(config.retentionBytes()));
        topic.put("cleanup.policy", config.compacted() ? "compact" : "delete");
        topic.put("delete.retention.ms", Long.toString(config.tombstoneRetention().toMillis()));
        topic.put("segment.bytes", Long.toString(Math.max(MIN_KAFKA_SEGMENT_BYTES, config.segmentBytes())));
        return topic;
    }

    /** The log queue settings a topic's configuration stands for; {@code durability}: the handle's. */
    public static LogQueueConfig logConfig(Map<String, String> topic, Durability durability) {
        LogQueueConfig defaults = LogQueueConfig.defaults();
        long retentionMs = parse(topic.get("retention.ms"), -1);
        long retentionBytes = parse(topic.get("retention.bytes"), -1);
        String policy = topic.getOrDefault("cleanup.policy", "delete");
        long tombstoneMs = parse(topic.get("delete.retention.ms"), defaults.tombstoneRetention().toMillis());
        long segmentBytes = parse(topic.get("segment.bytes"), defaults.segmentBytes());
        return new LogQueueConfig(durability, retentionMs < 0 ? null : Duration.ofMillis(retentionMs),
                retentionBytes <= 0 ? -1 : retentionBytes, policy.contains("compact"), Duration.ofMillis(tombstoneMs),
                Math.min(LogQueueConfig.MAX_SEGMENT_BYTES, Math.max(LogQueueConfig.MIN_SEGMENT_BYTES, segmentBytes)));
    }

    /** Topic configuration of a task queue: kept until consumed (deleted records would be lost work). */
    public static Map<String, String> taskTopic(TaskQueueConfig config) {
        Map<String, String> topic = new LinkedHashMap<>();
        topic.put("retention.ms", "-1");
        topic.put("retention.bytes", "-1");
        topic.put("cleanup.policy", "delete");
        topic.put("segment.bytes", Long.toString(Math.max(MIN_KAFKA_SEGMENT_BYTES, config.segmentBytes())));
        return topic;
    }

    /**
     * Share-group configuration of a task queue: the lock is the default lease, the delivery-count limit one above
     * the attempts (the delivery after the last attempt is the adapter's cue to dead-letter the task), capped by the
     * cluster's {@code group.share.max.delivery.count.limit}.
     */
    public static Map<String, String> taskShareGroup(TaskQueueConfig config, int clusterDeliveryLimit) {
        Map<String, String> group = new LinkedHashMap<>();
        group.put("share.record.lock.duration.ms", Long.toString(config.defaultLease().toMillis()));
        long limit = Math.min((long) config.maxAttempts() + 1, clusterDeliveryLimit);
        group.put("share.delivery.count.limit", Long.toString(limit));
        group.put("share.auto.offset.reset", "earliest");
        // Kafka's default is read_uncommitted: records of open or aborted transactions would be handed out.
        group.put("share.isolation.level", "read_committed");
        return group;
    }

    /** Share-group configuration of a shared group of a log queue, starting at the earliest or the latest record. */
    public static Map<String, String> sharedGroup(TaskQueueConfig redelivery, int clusterDeliveryLimit,
                                                  boolean startAtLatest) {
        Map<String, String> group = taskShareGroup(redelivery, clusterDeliveryLimit);
        group.put("share.auto.offset.reset", startAtLatest ? "latest" : "earliest");
        return group;
    }

    /** The task queue settings a share group's configuration stands for. */
    public static TaskQueueConfig taskConfig(Map<String, String> group, int clusterDeliveryLimit) {
        TaskQueueConfig defaults = TaskQueueConfig.defaults();
        long lockMs = parse(group.get("share.record.lock.duration.ms"), defaults.defaultLease().toMillis());
        long limit = parse(group.get("share.delivery.count.limit"), clusterDeliveryLimit);
        int attempts = (int) Math.max(1, limit - 1);
        return defaults.withDurability(Durability.SYNC).withDefaultLease(Duration.ofMillis(Math.max(1, lockMs)))
                .withMaxAttempts(attempts);
    }

    private static long parse(String value, long otherwise) {
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
