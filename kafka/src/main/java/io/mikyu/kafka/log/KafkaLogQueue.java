package io.mikyu.kafka.log;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Durability;
import io.mikyu.engine.EncodedBatch;
import io.mikyu.engine.EncodedBatchHandler;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.OffsetOutOfRangeException;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordHandler;
import io.mikyu.engine.RecordView;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.admin.KafkaCallException;
import io.mikyu.kafka.admin.TopicNames;
import io.mikyu.kafka.admin.TopicSettings;
import io.mikyu.kafka.record.RecordMapping;
import io.mikyu.kafka.share.ShareLeases;

import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Future;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A log queue as a one-partition topic: an append is a produce acknowledged by {@code acks=all} (so by
 * {@code min.insync.replicas} brokers) and returns the record's Kafka offset; reads go by offset; retention and
 * compaction are the brokers' own (topic settings, {@link io.mikyu.kafka.admin.TopicSettings}).
 */
public final class KafkaLogQueue implements LogQueue, AutoCloseable {

    private final String name;
    private final String topic;
    private final LogQueueConfig config;
    private final Cluster cluster;
    private final TopicNames names;
    private final TopicReader reader;
    private final int deliveryLimit;
    private final Function<String, TaskQueue> deadLetterQueues;
    private final Map<String, KafkaSharedGroup> sharedGroups = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private final AtomicLong appendedRecords = new AtomicLong();
    private final AtomicLong appendedBytes = new AtomicLong();
    private final AtomicLong readRecords = new AtomicLong();

    public KafkaLogQueue(String name, String topic, LogQueueConfig config, Cluster cluster, TopicNames names) {
        this(name, topic, config, cluster, names, 0, null);
    }

    /**
     * @param deliveryLimit    the cluster's highest share-group delivery-count limit
     * @param deadLetterQueues the dead-letter task queue of a name, made if needed ({@code null}: no shared groups)
     */
    public KafkaLogQueue(String name, String topic, LogQueueConfig config, Cluster cluster, TopicNames names,
                         int deliveryLimit, Function<String, TaskQueue> deadLetterQueues) {
        this.deliveryLimit = deliveryLimit;
        this.deadLetterQueues = deadLetterQueues;
        this.name = name;
        this.topic = topic;
        this.config = config;
        this.cluster = cluster;
        this.names = names;
        this.reader = new TopicReader(cluster, topic);
    }

    @Override
    public String name() {
        return name;
    }

    /** The topic behind this queue. */
    public String topic() {
        return topic;
    }

    @Override
    public LogQueueConfig config() {
        return config;
    }

    /** Every append waits for the cluster's acknowledgement ({@code acks=all}), whatever the durability asked. */
    @Override
    public long append(Entry entry, Durability durability) {
        ensureOpen();
        RecordMetadata written = Cluster.await(cluster.producer().send(RecordMapping.toKafka(topic, entry)),
                "append to '" + name + "'");
        count(List.of(entry));
        return written.offset();
    }

    /**
     * The entries are sent together by one idempotent producer, in order; another producer's records may come
     * between them (a Kafka batch is not a unit across producers' calls), so offsets after the first need not follow
     * on.
     */
    @Override
    public long appendBatch(List<Entry> entries, Durability durability) {
        ensureOpen();
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("a batch needs at least one entry");
        }
        List<Future<RecordMetadata>> sent = new ArrayList<>(entries.size());
        for (Entry entry : entries) {
            sent.add(cluster.producer().send(RecordMapping.toKafka(topic, entry)));
        }
        cluster.producer().flush();
        long first = -1;
        for (Future<RecordMetadata> f : sent) {
            long offset = Cluster.await(f, "append to '" + name + "'").offset();
            first = first < 0 ? offset : first;
        }
        count(entries);
        return first;
    }

    private void count(List<Entry> entries) {
        appendedRecords.addAndGet(entries.size());
        for (Entry e : entries) {
            appendedBytes.addAndGet((e.key() == null ? 0 : e.key().length) + (e.payload() == null ? 0 : e.payload().length));
        }
    }

    @Override
    public long appendEncoded(EncodedBatch batch, Durability durability) {
        throw new UnsupportedOperationException("engine-encoded batches are for mikyu's own broker; on Kafka append"
                + " entries");
    }

    @Override
    public Record read(long offset) {
        long start = startOffset();
        long end = endOffset();
        if (offset < start || offset >= end) {
            throw new OffsetOutOfRangeException("offset " + offset + " is outside log '" + name + "' [" + start + ", "
                    + end + ")");
        }
        List<Record> records = read(offset, 1);
        return records.isEmpty() || records.get(0).offset() != offset ? null : records.get(0);
    }

    @Override
    public List<Record> read(long fromOffset, int maxRecords, long maxBytes) {
        ensureOpen();
        try {
            return counted(reader.read(fromOffset, maxRecords, maxBytes, Duration.ZERO));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    @Override
    public List<Record> poll(long fromOffset, int maxRecords, long maxBytes, Duration wait)
            throws InterruptedException {
        ensureOpen();
        return counted(reader.read(fromOffset, maxRecords, maxBytes, wait));
    }

    private List<Record> counted(List<Record> records) {
        readRecords.addAndGet(records.size());
        return records;
    }

    @Override
    public long poll(long fromOffset, int maxRecords, Duration wait, RecordHandler handler)
            throws InterruptedException {
        List<Record> records = poll(fromOffset, maxRecords, Long.MAX_VALUE, wait);
        for (Record r : records) {
            handler.onRecord(RecordView.of(r));
        }
        return records.isEmpty() ? fromOffset : records.get(records.size() - 1).offset() + 1;
    }

    @Override
    public long pollEncoded(long fromOffset, long maxBytes, int maxBatchBytes, Duration wait,
                            EncodedBatchHandler handler) {
        throw new UnsupportedOperationException("engine-encoded batches are for mikyu's own broker; on Kafka poll"
                + " records");
    }

    @Override
    public long startOffset() {
        return cluster.startOffset(topic);
    }

    @Override
    public long endOffset() {
        return cluster.endOffset(topic);
    }

    @Override
    public long offsetForTimestamp(long timestampMillis) {
        long offset = cluster.offsetForTimestamp(topic, timestampMillis);
        return offset < 0 ? endOffset() : offset;
    }

    @Override
    public ConsumerGroup group(String groupName) {
        return new KafkaConsumerGroup(this, cluster, groupName, names.consumerGroup(name, groupName));
    }

    @Override
    public SharedGroup sharedGroup(String groupName, SharedGroupConfig groupConfig) {
        return sharedGroup(groupName, groupConfig, null, OffsetReset.earliest());
    }

    @Override
    public SharedGroup sharedGroup(String groupName, SharedGroupConfig groupConfig, TaskFilter admissionFilter) {
        return sharedGroup(groupName, groupConfig, admissionFilter, OffsetReset.earliest());
    }

    @Override
    public SharedGroup sharedGroup(String groupName, SharedGroupConfig groupConfig, TaskFilter admissionFilter,
                                   OffsetReset startIfNew) {
        if (admissionFilter != null) {
            throw new UnsupportedOperationException("a shared group with a filter (a JMS subscription's selector) is"
                    + " not available on Kafka (docs/kafka.md): a share group cannot skip records without acquiring"
                    + " them");
        }
        if (deadLetterQueues == null) {
            throw new UnsupportedOperationException("'" + name + "' has no shared groups");
        }
        return sharedGroups.computeIfAbsent(groupName, g -> {
            String groupId = names.sharedGroup(name, g);
            cluster.setGroupConfig(groupId, TopicSettings.sharedGroup(groupConfig.redelivery(), deliveryLimit,
                    startIfNew instanceof OffsetReset.Latest));
            String dlq = name + ":" + g + TaskQueue.DEAD_LETTER_SUFFIX;
            KafkaSharedGroup group = new KafkaSharedGroup(this, cluster, g, groupId, groupConfig, () -> deadLetterQueues.apply(dlq),
                    entry -> deadLetterQueues.apply(dlq).enqueue(
                            io.mikyu.engine.Task.of(entry.payload()).withHeaders(entry.headers()), Durability.SYNC));
            if (!(startIfNew instanceof OffsetReset.Earliest) && !group.hasStarted()) {
                // Kafka starts a share group where its first member joins; mikyu's starts when it is made.
                group.startAt(startOffsetOf(startIfNew));
            }
            return group;
        });
    }

    /**
     * The leases of shared group {@code groupName} as this handle holds them; {@link StaleLeaseException} if this
     * handle has not opened the group (it holds none of its leases then).
     */
    public ShareLeases sharedLeases(String groupName) {
        KafkaSharedGroup group = sharedGroups.get(groupName);
        if (group == null) {
            throw new StaleLeaseException("no lease of shared group '" + groupName + "' of '" + name
                    + "' is held by this store handle");
        }
        return group.leases();
    }

    private long startOffsetOf(OffsetReset reset) {
        if (reset instanceof OffsetReset.Latest) {
            return endOffset();
        } else if (reset instanceof OffsetReset.ToOffset to) {
            return Math.max(startOffset(), Math.min(to.offset(), endOffset()));
        } else if (reset instanceof OffsetReset.ToTimestamp at) {
            return offsetForTimestamp(at.timestampMillis());
        }
        return startOffset();
    }

    @Override
    public List<String> groups() {
        TreeSet<String> out = new TreeSet<>(sharedGroups.keySet());
        for (GroupListing g : Cluster.await(cluster.admin().listGroups().all(), "list the groups of '" + name + "'")) {
            String groupName = names.groupName(name, g.groupId());
            groupName = groupName != null ? groupName : names.sharedGroupName(name, g.groupId());
            if (groupName != null) {
                out.add(groupName);
            }
        }
        return new ArrayList<>(out);
    }

    @Override
    public boolean deleteGroup(String groupName) {
        KafkaSharedGroup shared = sharedGroups.remove(groupName);
        if (shared != null) {
            shared.close();
        }
        // A shared group made here exists on the cluster only once a member joined: it counts as deleted too.
        boolean deleted = shared != null;
        try {
            Cluster.await(cluster.admin().deleteConsumerGroups(List.of(names.consumerGroup(name, groupName))).all(),
                    "delete group '" + groupName + "' of '" + name + "'");
            deleted = true;
        } catch (KafkaCallException e) {
            if (!Cluster.isUnknownGroup(e)) {
                throw e;
            }
        }
        try {
            Cluster.await(cluster.admin().deleteShareGroups(List.of(names.sharedGroup(name, groupName))).all(),
                    "delete shared group '" + groupName + "' of '" + name + "'");
            deleted = true;
        } catch (KafkaCallException e) {
            if (!Cluster.isUnknownGroup(e)) {
                throw e;
            }
        }
        return deleted;
    }

    /** The brokers apply retention on their own schedule ({@code log.retention.check.interval.ms}); nothing here. */
    @Override
    public long applyRetention() {
        return 0;
    }

    /** The brokers' log cleaner compacts on its own schedule; nothing here. */
    @Override
    public long compact() {
        return 0;
    }

    /** Removes every record below {@code offset} (Kafka's delete-records); what a purge of a task queue uses. */
    public void deleteBefore(long offset) {
        TopicPartition tp = new TopicPartition(topic, 0);
        Cluster.await(cluster.admin().deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(offset))).all(),
                "delete the records of '" + name + "' below " + offset);
    }

    @Override
    public QueueStats stats() {
        long start = startOffset();
        long end = endOffset();
        return new QueueStats(name, QueueKind.LOG, start, end, end - start, 0, 0, appendedRecords.get(),
                appendedBytes.get(), readRecords.get(), 0, 0);
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreClosedException("log queue '" + name + "' is closed");
        }
    }

    @Override
    public void close() {
        closed = true;
        sharedGroups.values().forEach(KafkaSharedGroup::close);
        sharedGroups.clear();
        reader.close();
    }
}
