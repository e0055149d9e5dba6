package io.mikyu.kafka.log;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.admin.KafkaCallException;
import io.mikyu.kafka.record.RecordMapping;
import io.mikyu.kafka.share.ShareLeases;

import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A shared consumer group of a log queue as a Kafka share group on the log's topic: the group's start offset is
 * the committed offset, its leases and dead letters as for task queues ({@link ShareLeases}); the dead letters go to
 * the task queue {@code <queue>:<group>/dlq}.
 */
final class KafkaSharedGroup implements SharedGroup, AutoCloseable {

    private final KafkaLogQueue log;
    private final Cluster cluster;
    private final String name;
    private final String groupId;
    private final SharedGroupConfig config;
    private final Supplier<TaskQueue> deadLetters;
    private final ShareLeases leases;

    KafkaSharedGroup(KafkaLogQueue log, Cluster cluster, String name, String groupId, SharedGroupConfig config,
                     Supplier<TaskQueue> deadLetters, java.util.function.Consumer<io.mikyu.engine.Entry> sink) {
        this.log = log;
        this.cluster = cluster;
        this.name = name;
        this.groupId = groupId;
        this.config = config;
        this.deadLetters = deadLetters;
        this.leases = new ShareLeases(cluster, groupId, log.topic(), log.name(), config.redelivery().maxAttempts(),
                config.redelivery().defaultLease().toMillis(), sink);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String queue() {
        return log.name();
    }

    @Override
    public SharedGroupConfig config() {
        return config;
    }

    /** {@code lease} cannot differ per fetch on Kafka: the group's lock duration applies. */
    @Override
    public List<Delivery> fetch(int max, Duration lease, Duration wait) throws InterruptedException {
        List<Delivery> out = new ArrayList<>();
        for (ShareLeases.Acquired a : leases.fetch(max, wait)) {
            out.add(new Delivery(RecordMapping.toMikyu(a.record()), a.token(), a.attempt(), a.leaseExpiresAt()));
        }
        return out;
    }

    /** The leases this handle holds (a transaction checks, renews and settles them). */
    ShareLeases leases() {
        return leases;
    }

    /** Whether the share group has a start offset already (a member joined, or {@link #startAt} set it). */
    boolean hasStarted() {
        return startOffset() >= 0;
    }

    /** Sets where the group starts; only while it has no members. */
    void startAt(long offset) {
        Cluster.await(cluster.admin().alterShareGroupOffsets(groupId,
                Map.of(new TopicPartition(log.topic(), 0), offset)).all(), "start group '" + name + "' at " + offset);
    }

    /**
     * The group's start offset as the share coordinator stored it: below it every record is finished. The
     * coordinator stores it shortly after acknowledgements, not with each one, so it may trail them a little.
     */
    @Override
    public long committedOffset() {
        long start = startOffset();
        return start < 0 ? log.startOffset() : Math.max(start, log.startOffset());
    }

    /** The stored start offset, or -1 if the group has none yet. */
    private long startOffset() {
        TopicPartition tp = new TopicPartition(log.topic(), 0);
        try {
            Map<TopicPartition, SharePartitionOffsetInfo> offsets = Cluster.await(cluster.admin()
                    .listShareGroupOffsets(Map.of(groupId, new ListShareGroupOffsetsSpec().topicPartitions(List.of(tp))))
                    .partitionsToOffsetInfo(groupId), "read the offset of group '" + name + "'");
            SharePartitionOffsetInfo info = offsets.get(tp);
            return info == null ? -1 : info.startOffset();
        } catch (KafkaCallException e) {
            if (Cluster.isUnknownGroup(e)) {
                return -1;
            }
            throw e;
        }
    }

    /** Ready: records past the committed offset not leased by this handle (other clients' leases are not seen). */
    @Override
    public TaskCounts counts() {
        long inFlight = leases.inFlight();
        return new TaskCounts(Math.max(0, lag() - inFlight), 0, inFlight);
    }

    @Override
    public long lag() {
        return Math.max(0, log.endOffset() - committedOffset());
    }

    @Override
    public TaskQueue deadLetters() {
        return deadLetters.get();
    }

    @Override
    public void ack(LeaseToken token) {
        leases.ack(token);
    }

    @Override
    public void ack(List<LeaseToken> tokens) {
        leases.ack(tokens);
    }

    /** Back at once ({@code delay} is not honoured: Kafka has no redelivery delay). */
    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        leases.nack(token, reason);
    }

    /**
     * A share consumer fetches again only once everything it fetched is acknowledged; while a handle's members all
     * hold records, a fetch waits for an ack or makes a new member (a group join): acks written first free one.
     */
    @Override
    public boolean fetchWaitsForAcks() {
        return true;
    }

    @Override
    public void returnUndelivered(List<LeaseToken> tokens) {
        leases.returnUndelivered(tokens);
    }

    @Override
    public long extend(LeaseToken token, Duration lease) {
        return leases.extend(token);
    }

    @Override
    public void close() {
        leases.close();
    }
}
