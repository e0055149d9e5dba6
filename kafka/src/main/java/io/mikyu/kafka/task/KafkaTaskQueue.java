package io.mikyu.kafka.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Record;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.GroupMember;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.admin.KafkaCallException;
import io.mikyu.kafka.delay.DelayedTasks;
import io.mikyu.kafka.log.KafkaLogQueue;
import io.mikyu.kafka.record.RecordMapping;
import io.mikyu.kafka.share.ShareLeases;

import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A task queue as a topic and a share group (KIP-932): an enqueue is a produce (the task's id is its offset), the
 * leases are the share group's ({@link ShareLeases}), dead letters go to the task queue {@code <name>/dlq}.
 *
 * <p>Priorities, delays and backoffs are not honoured here (docs/kafka.md): tasks come in enqueue order and a
 * returned task is ready again at once.
 */
public final class KafkaTaskQueue implements TaskQueue, AutoCloseable {

    private final String name;
    private final TaskQueueConfig config;
    private final Cluster cluster;
    private final KafkaLogQueue log;
    private final Function<String, KafkaTaskQueue> deadLetterQueue;
    private final boolean isDeadLetterQueue;
    private final String group;
    private final ShareLeases leases;
    private final DelayedTasks delays;

    public KafkaTaskQueue(String name, TaskQueueConfig config, Cluster cluster, KafkaLogQueue log, String group,
                          Function<String, KafkaTaskQueue> deadLetterQueue, DelayedTasks delays) {
        this.delays = delays;
        this.name = name;
        this.config = config;
        this.cluster = cluster;
        this.log = log;
        this.group = group;
        this.deadLetterQueue = deadLetterQueue;
        this.isDeadLetterQueue = name.endsWith(DEAD_LETTER_SUFFIX);
        this.leases = new ShareLeases(cluster, group, log.topic(), name, config.maxAttempts(),
                config.defaultLease().toMillis(), isDeadLetterQueue ? null
                : entry -> deadLetterQueue.apply(name + DEAD_LETTER_SUFFIX).log.append(entry, Durability.SYNC),
                new ShareLeases.Later() {
                    @Override
                    public Duration backoff(int attempt) {
                        return config.backoff(attempt);
                    }

                    @Override
                    public void write(ConsumerRecord<byte[], byte[]> record, int attempts, long deliverAt) {
                        delays.send(name, RecordMapping.mikyuHeaders(record.headers()),
                                record.value() == null ? new byte[0] : record.value(), deliverAt, attempts);
                    }
                });
        if (!isDeadLetterQueue) {
            delays.ensureForwarding();
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public TaskQueueConfig config() {
        return config;
    }

    /**
     * A task to be delivered later goes to a delay tier (docs/kafka.md) and its id is its offset there; it gets
     * its id in the queue's topic when it is forwarded.
     */
    @Override
    public long enqueue(Task task, Durability durability) {
        if (isDelayed(task)) {
            Entry e = entry(task);
            return delays.send(name, e.headers(), e.payload(), task.deliverAt(), 0);
        }
        return log.append(entry(task), durability);
    }

    private static boolean isDelayed(Task task) {
        return task.deliverAt() > System.currentTimeMillis();
    }

    @Override
    public long enqueueBatch(List<Task> tasks, Durability durability) {
        if (tasks.stream().anyMatch(KafkaTaskQueue::isDelayed)) {
            long first = -1;
            for (Task t : tasks) {
                long id = enqueue(t, durability);
                first = first < 0 ? id : first;
            }
            return first;
        }
        List<Entry> entries = new ArrayList<>(tasks.size());
        for (Task t : tasks) {
            entries.add(entry(t));
        }
        return log.appendBatch(entries, durability);
    }

    /** The Kafka record an enqueue of {@code task} sends (what a transaction sends for it). */
    public ProducerRecord<byte[], byte[]> record(Task task) {
        if (isDelayed(task)) {
            Entry e = entry(task);
            return delays.record(name, e.headers(), e.payload(), task.deliverAt(), 0);
        }
        return RecordMapping.toKafka(log.topic(), entry(task));
    }

    /** The leases this handle holds (a transaction checks, renews and settles them). */
    public ShareLeases leases() {
        return leases;
    }

    /** The task as a record: its priority and times travel as the headers shared groups read too. */
    private static Entry entry(Task task) {
        Headers.Builder headers = Headers.builder();
        task.headers().asList().forEach(h -> headers.add(h.name(), h.value()));
        if (task.priority() != Task.DEFAULT_PRIORITY) {
            headers.add(SharedGroup.PRIORITY_HEADER, Integer.toString(task.priority()));
        }
        if (task.deliverAt() > 0) {
            headers.add(SharedGroup.DELIVER_AT_HEADER, Long.toString(task.deliverAt()));
        }
        if (task.expiresAt() > 0) {
            headers.add(SharedGroup.EXPIRES_AT_HEADER, Long.toString(task.expiresAt()));
        }
        return new Entry(null, headers.build(), task.payload(), Entry.NO_TIMESTAMP);
    }

    /**
     * {@code lease} cannot differ per fetch on Kafka: the group's lock duration ({@link TaskQueueConfig#defaultLease()}
     * when the queue was made) applies. Message groups are not kept on Kafka (docs/kafka.md): a take by a
     * {@link GroupMember} (every JMS queue consumer's) is a take by its own filter.
     */
    @Override
    public List<LeasedTask> dequeue(int max, Duration lease, Duration wait, TaskFilter filter)
            throws InterruptedException {
        filter = GroupMember.unwrap(filter);
        if (filter != null) {
            throw new UnsupportedOperationException("selectors on task queues are not available on Kafka"
                    + " (docs/kafka.md): a share group cannot skip records without acquiring them");
        }
        List<LeasedTask> out = new ArrayList<>();
        for (ShareLeases.Acquired a : leases.fetch(max, wait)) {
            int priority = (int) Math.max(0, Math.min(9,
                    ShareLeases.longHeader(a.headers(), SharedGroup.PRIORITY_HEADER, Task.DEFAULT_PRIORITY)));
            out.add(new LeasedTask(a.record().offset(), a.token(), a.attempt(), priority, a.record().timestamp(),
                    a.expiresAt(), a.leaseExpiresAt(), a.headers(), a.payload()));
        }
        return out;
    }

    @Override
    public void ack(LeaseToken token) {
        leases.ack(token);
    }

    @Override
    public void ack(List<LeaseToken> tokens) {
        leases.ack(tokens);
    }

    /** Back at once for no delay; else through a delay tier ({@code null}: the queue's backoff). */
    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        leases.nack(token, delay, reason);
    }

    /** Back to the queue; Kafka still counts the delivery. */
    @Override
    public void returnUndelivered(List<LeaseToken> tokens) {
        leases.returnUndelivered(tokens);
    }

    /** Renews the acquisition lock by the group's lock duration ({@code lease} cannot be chosen on Kafka). */
    @Override
    public long extend(LeaseToken token, Duration lease) {
        return leases.extend(token);
    }

    /** Not a view of the share group's state (Kafka shows it to no one): the records from its start offset on. */
    @Override
    public List<LeasedTask> browse(int max, TaskFilter filter) {
        if (filter != null) {
            throw new UnsupportedOperationException("selectors on task queues are not available on Kafka");
        }
        List<LeasedTask> out = new ArrayList<>();
        for (Record r : log.read(groupStart(), max)) {
            Headers headers = r.headers();
            out.add(new LeasedTask(r.offset(), null, 0,
                    (int) ShareLeases.longHeader(headers, SharedGroup.PRIORITY_HEADER, Task.DEFAULT_PRIORITY),
                    r.timestamp(), ShareLeases.longHeader(headers, SharedGroup.EXPIRES_AT_HEADER, 0), 0, headers,
                    r.payload() == null ? new byte[0] : r.payload()));
        }
        return out;
    }

    /** The share group's start offset: below it every record is finished. */
    private long groupStart() {
        TopicPartition tp = new TopicPartition(log.topic(), 0);
        try {
            Map<TopicPartition, SharePartitionOffsetInfo> offsets = Cluster.await(cluster.admin()
                    .listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec().topicPartitions(List.of(tp))))
                    .partitionsToOffsetInfo(group), "read the offsets of '" + name + "'");
            SharePartitionOffsetInfo info = offsets.get(tp);
            return info == null ? log.startOffset() : Math.max(info.startOffset(), log.startOffset());
        } catch (KafkaCallException e) {
            if (Cluster.isUnknownGroup(e)) {
                return log.startOffset();
            }
            throw e;
        }
    }

    /** Deletes the topic's records up to its end (Kafka's delete-records); leased tasks go with them. */
    @Override
    public long purge() {
        long start = groupStart();
        long end = log.endOffset();
        log.deleteBefore(end);
        return Math.max(0, end - start);
    }

    /** Ready: records past the group's start offset not handed out by this handle (others' leases are not seen). */
    @Override
    public TaskCounts counts() {
        long inFlight = leases.inFlight();
        long depth = Math.max(0, log.endOffset() - groupStart());
        return new TaskCounts(Math.max(0, depth - inFlight), 0, inFlight);
    }

    @Override
    public TaskQueue deadLetters() {
        return isDeadLetterQueue ? null : deadLetterQueue.apply(name + DEAD_LETTER_SUFFIX);
    }

    @Override
    public QueueStats stats() {
        QueueStats s = log.stats();
        return new QueueStats(name, QueueKind.TASK, s.startOffset(), s.endOffset(), s.records(), 0, 0,
                s.appendedRecords(), s.appendedBytes(), s.readRecords(), 0, 0);
    }

    @Override
    public void close() {
        leases.close();
        log.close();
    }
}
