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
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.admin.KafkaCallException;
import io.mikyu.kafka.log.KafkaLogQueue;
import io.mikyu.kafka.record.RecordMapping;

import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A task queue as a topic and a share group (KIP-932): an enqueue is a produce (the task's id is its offset), a
 * dequeue a share fetch that acquires records under the group's acquisition lock (the lease), an ack
 * {@code ACCEPT}, a nack {@code RELEASE} (redelivered at once, its delivery count raised), an extension
 * {@code RENEW}. After {@link TaskQueueConfig#maxAttempts()} deliveries a task goes to the dead-letter queue
 * {@code <name>/dlq}, another such topic: a nack of the last attempt, or the delivery after the last attempt when
 * its lease ran out, writes it there with mikyu's {@code mikyu.dlq.*} headers and then accepts it (a crash between
 * the two leaves a duplicate in the dead-letter queue, never a loss).
 *
 * <p>Priorities, delays and backoffs are not honoured here (docs/kafka.md): tasks come in enqueue order and a
 * returned task is ready again at once.
 */
public final class KafkaTaskQueue implements TaskQueue, AutoCloseable {

    private final String name;
    private final TaskQueueConfig config;
    private final Cluster cluster;
    private final KafkaLogQueue log;
    private final String group;
    private final Function<String, KafkaTaskQueue> deadLetterQueue;
    private final boolean isDeadLetterQueue;
    private final List<ShareMember> members = new CopyOnWriteArrayList<>();
    private final Map<LeaseToken, Held> held = new ConcurrentHashMap<>();
    private final AtomicLong leases = new AtomicLong();
    private volatile boolean closed;

    /** A task handed out: the member that must acknowledge it, and the record. */
    private record Held(ShareMember member, ConsumerRecord<byte[], byte[]> record, int attempt) {
    }

    public KafkaTaskQueue(String name, TaskQueueConfig config, Cluster cluster, KafkaLogQueue log, String group,
                          Function<String, KafkaTaskQueue> deadLetterQueue) {
        this.name = name;
        this.config = config;
        this.cluster = cluster;
        this.log = log;
        this.group = group;
        this.deadLetterQueue = deadLetterQueue;
        this.isDeadLetterQueue = name.endsWith(DEAD_LETTER_SUFFIX);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public TaskQueueConfig config() {
        return config;
    }

    @Override
    public long enqueue(Task task, Durability durability) {
        return log.append(entry(task), durability);
    }

    @Override
    public long enqueueBatch(List<Task> tasks, Durability durability) {
        List<Entry> entries = new ArrayList<>(tasks.size());
        for (Task t : tasks) {
            entries.add(entry(t));
        }
        return log.appendBatch(entries, durability);
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
     * Fetches with an idle member (a new one if all hold records). {@code lease} cannot differ per fetch on Kafka: the
     * group's lock duration ({@link TaskQueueConfig#defaultLease()} when the queue was made) applies.
     */
    @Override
    public List<LeasedTask> dequeue(int max, Duration lease, Duration wait, TaskFilter filter)
            throws InterruptedException {
        if (filter != null) {
            throw new UnsupportedOperationException("selectors on task queues are not available on Kafka"
                    + " (docs/kafka.md): a share group cannot skip records without acquiring them");
        }
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1: " + max);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        List<LeasedTask> out = new ArrayList<>();
        while (out.isEmpty()) {
            ensureOpen();
            if (Thread.interrupted()) {
                throw new InterruptedException("dequeue from '" + name + "' interrupted");
            }
            ShareMember member = idleMember(max);
            long left = Math.max(0, deadline - System.nanoTime());
            Duration step = Duration.ofNanos(Math.min(left, Duration.ofMillis(500).toNanos()));
            for (ConsumerRecord<byte[], byte[]> r : member.poll(step)) {
                LeasedTask task = handOut(member, r);
                if (task != null) {
                    out.add(task);
                }
            }
            if (System.nanoTime() - deadline >= 0) {
                break;
            }
        }
        return out;
    }

    private ShareMember idleMember(int max) {
        for (ShareMember m : members) {
            if (m.isIdle()) {
                return m;
            }
        }
        ShareMember m = new ShareMember(cluster, group, log.topic(), Math.max(1, Math.min(max, 500)));
        members.add(m);
        return m;
    }

    /** The task of a fetched record, or {@code null} if it is not handed out (expired, or past its attempts). */
    private LeasedTask handOut(ShareMember member, ConsumerRecord<byte[], byte[]> r) {
        int attempt = r.deliveryCount().map(Short::intValue).orElse(1);
        Headers headers = RecordMapping.mikyuHeaders(r.headers());
        long expiresAt = longHeader(headers, SharedGroup.EXPIRES_AT_HEADER);
        if (expiresAt > 0 && expiresAt <= System.currentTimeMillis()) {
            member.acknowledge(r, AcknowledgeType.ACCEPT);
            return null;
        }
        if (attempt > config.maxAttempts() && !isDeadLetterQueue) {
            deadLetter(member, r, attempt - 1, "lease expired");
            return null;
        }
        long lockMillis = member.lockMillis().map(Integer::longValue).orElse(config.defaultLease().toMillis());
        LeaseToken token = new LeaseToken(r.offset(), leases.incrementAndGet());
        held.put(token, new Held(member, r, attempt));
        int priority = (int) Math.max(0, Math.min(9, longHeader(headers, SharedGroup.PRIORITY_HEADER, Task.DEFAULT_PRIORITY)));
        return new LeasedTask(r.offset(), token, attempt, priority, r.timestamp(), expiresAt,
                System.currentTimeMillis() + lockMillis, headers, r.value() == null ? new byte[0] : r.value());
    }

    private static long longHeader(Headers headers, String name) {
        return longHeader(headers, name, 0);
    }

    private static long longHeader(Headers headers, String name, long otherwise) {
        String value = headers.getString(name);
        if (value == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    @Override
    public void ack(LeaseToken token) {
        finish(token, AcknowledgeType.ACCEPT);
    }

    @Override
    public void ack(List<LeaseToken> tokens) {
        for (LeaseToken t : tokens) {
            ack(t);
        }
    }

    /** Back to the queue at once ({@code delay} is not honoured: Kafka has no redelivery delay); dead-lettered after the last attempt. */
    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        Held h = held.get(token);
        if (h != null && h.attempt() >= config.maxAttempts() && !isDeadLetterQueue) {
            held.remove(token);
            deadLetter(h.member(), h.record(), h.attempt(), reason == null ? "nacked" : reason);
            return;
        }
        finish(token, AcknowledgeType.RELEASE);
    }

    /** Back to the queue; Kafka still counts the delivery. */
    @Override
    public void returnUndelivered(List<LeaseToken> tokens) {
        for (LeaseToken t : tokens) {
            try {
                finish(t, AcknowledgeType.RELEASE);
            } catch (StaleLeaseException e) {
                // Its lease already ended: it is back in the queue anyway.
            }
        }
    }

    /** Renews the acquisition lock by the group's lock duration ({@code lease} cannot be chosen on Kafka). */
    @Override
    public long extend(LeaseToken token, Duration lease) {
        Held h = held.get(token);
        if (h == null) {
            throw new StaleLeaseException("no lease " + token + " on '" + name + "'");
        }
        KafkaException refused = h.member().acknowledge(h.record(), AcknowledgeType.RENEW);
        if (refused != null) {
            held.remove(token);
            throw new StaleLeaseException("lease " + token + " on '" + name + "' could not be renewed: "
                    + refused.getMessage(), refused);
        }
        return System.currentTimeMillis()
                + h.member().lockMillis().map(Integer::longValue).orElse(config.defaultLease().toMillis());
    }

    private void finish(LeaseToken token, AcknowledgeType type) {
        Held h = held.remove(token);
        if (h == null) {
            throw new StaleLeaseException("no lease " + token + " on '" + name + "'");
        }
        KafkaException refused = h.member().acknowledge(h.record(), type);
        if (refused != null) {
            throw new StaleLeaseException("lease " + token + " on '" + name + "' ended before it was "
                    + (type == AcknowledgeType.ACCEPT ? "acked" : "returned") + ": " + refused.getMessage(), refused);
        }
    }

    /** Writes the record to the dead-letter queue, then accepts it here (a crash between: a duplicate there). */
    private void deadLetter(ShareMember member, ConsumerRecord<byte[], byte[]> r, int attempts, String reason) {
        Headers.Builder headers = Headers.builder();
        RecordMapping.mikyuHeaders(r.headers()).asList().forEach(h -> headers.add(h.name(), h.value()));
        headers.add(DLQ_ORIGINAL_QUEUE, name);
        headers.add(DLQ_ORIGINAL_ID, Long.toString(r.offset()));
        headers.add(DLQ_ATTEMPTS, Integer.toString(attempts));
        headers.add(DLQ_REASON, reason.getBytes(StandardCharsets.UTF_8));
        deadLetterQueue.apply(name + DEAD_LETTER_SUFFIX).log.append(
                new Entry(null, headers.build(), r.value() == null ? new byte[0] : r.value(), Entry.NO_TIMESTAMP),
                Durability.SYNC);
        KafkaException refused = member.acknowledge(r, AcknowledgeType.ACCEPT);
        if (refused != null) {
            // The record went back to the group: it will come again and be dead-lettered again.
            return;
        }
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
                    (int) longHeader(headers, SharedGroup.PRIORITY_HEADER, Task.DEFAULT_PRIORITY), r.timestamp(),
                    longHeader(headers, SharedGroup.EXPIRES_AT_HEADER), 0, headers,
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
        long inFlight = held.size();
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

    private void ensureOpen() {
        if (closed) {
            throw new StoreClosedException("task queue '" + name + "' is closed");
        }
    }

    @Override
    public void close() {
        closed = true;
        for (ShareMember m : members) {
            m.wakeup();
        }
        for (ShareMember m : members) {
            try {
                m.close();
            } catch (RuntimeException e) {
                // Closing: what it held returns to the group when its locks run out.
            }
        }
        members.clear();
        log.close();
    }
}
