package io.mikyu.kafka.log;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.Record;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.admin.KafkaCallException;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A consumer group as a Kafka consumer group of no members: its committed offset is Kafka's committed offset of the
 * topic's partition, written and read with the admin client, so it survives as Kafka's does (replicated in
 * {@code __consumer_offsets}) and other Kafka tools see it.
 */
final class KafkaConsumerGroup implements ConsumerGroup {

    private final KafkaLogQueue log;
    private final Cluster cluster;
    private final String name;
    private final String groupId;
    private final TopicPartition partition;

    KafkaConsumerGroup(KafkaLogQueue log, Cluster cluster, String name, String groupId) {
        this.log = log;
        this.cluster = cluster;
        this.name = name;
        this.groupId = groupId;
        this.partition = new TopicPartition(log.topic(), 0);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String queue() {
        return log.name();
    }

    /** The committed offset, or -1 if there is none. */
    private long committed() {
        try {
            Map<TopicPartition, OffsetAndMetadata> offsets = Cluster.await(
                    cluster.admin().listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata(),
                    "read the offset of group '" + name + "'");
            OffsetAndMetadata offset = offsets.get(partition);
            return offset == null ? -1 : offset.offset();
        } catch (KafkaCallException e) {
            if (Cluster.isUnknownGroup(e)) {
                return -1;
            }
            throw e;
        }
    }

    @Override
    public long position() {
        long committed = committed();
        long start = log.startOffset();
        return committed < 0 ? start : Math.max(committed, start);
    }

    @Override
    public boolean hasCommitted() {
        return committed() >= 0;
    }

    @Override
    public void commit(long nextOffset) {
        if (nextOffset < 0) {
            throw new IllegalArgumentException("an offset is not negative: " + nextOffset);
        }
        Cluster.await(cluster.admin().alterConsumerGroupOffsets(groupId,
                        Map.of(partition, new OffsetAndMetadata(nextOffset))).all(),
                "commit offset " + nextOffset + " of group '" + name + "'");
    }

    @Override
    public long reset(OffsetReset reset) {
        long offset;
        if (reset instanceof OffsetReset.Earliest) {
            offset = log.startOffset();
        } else if (reset instanceof OffsetReset.Latest) {
            offset = log.endOffset();
        } else if (reset instanceof OffsetReset.ToOffset to) {
            offset = Math.max(log.startOffset(), Math.min(to.offset(), log.endOffset()));
        } else {
            offset = log.offsetForTimestamp(((OffsetReset.ToTimestamp) reset).timestampMillis());
        }
        commit(offset);
        return offset;
    }

    @Override
    public List<Record> poll(int maxRecords, Duration wait) throws InterruptedException {
        return log.poll(position(), maxRecords, wait);
    }

    @Override
    public long lag() {
        return Math.max(0, log.endOffset() - position());
    }
}
