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
import io.mikyu.kafka.priority.PriorityBands;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A task queue as a topic and a share group (KIP-932): an enqueue is a produce (the task's id is its offset), the
 * leases are the share group's ({@link ShareLeases}), dead letters go to the task queue {@code <name>/dlq}.
 *
 * <p>Priorities are emulated with two bands ({@link PriorityBands}): tasks of priority 5 to 9 go to a second topic
 * with its own share group, made on the queue's first such task, and a dequeue prefers that band three times in
 * four. Within a band tasks come in enqueue order.
 */
public final class KafkaTaskQueue implements TaskQueue, AutoCloseable {

    /** One band: a topic, its share group and this handle's leases on it. */
    private record Band(KafkaLogQueue log, String group, ShareLeases leases, boolean high) {
        long id(long offset) {
            return PriorityBands.id(high, offset);
        }
    }

    /**
     * How long a dequeue polls a band at a time before it looks at the other: short, so that a band's tasks are not
     * held back by a wait on the other, long enough for a fetch of tasks that are there to come back.
     */
    private static final long BAND_STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How often a handle without a high band asks the cluster whether a client of another JVM made it. */
    private static final long HIGH_BAND_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String name;
    private final TaskQueueConfig config;
    private final Cluster cluster;
    private final Function<String, KafkaTaskQueue> deadLetterQueue;
    private final boolean isDeadLetterQueue;
    private final DelayedTasks delays;
    private final Band low;
    private final HighBand highBand;
    private volatile Band high;
    private volatile long highCheckedAt = System.nanoTime() - HIGH_BAND_RECHECK_NANOS;
    private final AtomicLong turns = new AtomicLong();
    private volatile boolean closed;

    public KafkaTaskQueue(String name, TaskQueueConfig config, Cluster cluster, KafkaLogQueue log, String group,
                          HighBand highBand, Function<String, KafkaTaskQueue> deadLetterQueue, DelayedTasks delays) {
        this.delays = delays;
        this.name = name;
        this.config = config;
        this.cluster = cluster;
        this.highBand = highBand;
        this.deadLetterQueue = deadLetterQueue;
        this.isDeadLetterQueue = name.endsWith(DEAD_LETTER_SUFFIX);
        this.low = band(log, group, false);
        if (!isDeadLetterQueue) {
            delays.ensureForwarding();
        }
    }

    private Band band(KafkaLogQueue log, String group, boolean high) {
        ShareLeases leases = new ShareLeases(cluster, group, log.topic(), name, config.maxAttempts(),
                config.defaultLease().toMillis(), isDeadLetterQueue ? null
                : entry -> deadLetterQueue.apply(name + DEAD_LETTER_SUFFIX).append(entry),
                new ShareLeases.Later() {
                    @Override
                    public Duration backoff(int attempt) {
                        return config.backoff(attempt);
                    }

                    @Override
                    public void write(ConsumerRecord<byte[], byte[]> record, int attempts, long deliverAt) {
                        // Its mikyu.priority header brings it back to its band when forwarded.
                        delays.send(name, RecordMapping.mikyuHeaders(record.headers()),
                                record.value() == null ? new byte[0] : record.value(), deliverAt, attempts);
                    }
                }, high ? PriorityBands.HIGH_ID_BIT : 0);
        return new Band(log, group, leases, high);
    }

    /**
     * The high band if it exists: known at once if a store handle of this JVM made or saw it, else looked up on the
     * cluster when {@code fresh}, and otherwise at most every {@link #HIGH_BAND_RECHECK_NANOS} (a dequeue must not
     * list topics each time).
     */
    private Band high(boolean fresh) {
        Band known = high;
        if (known != null) {
            return known;
        }
        if (highBand.seenInThisJvm()) {
            return openHigh();
        }
        long now = System.nanoTime();
        if (!fresh && now - highCheckedAt < HIGH_BAND_RECHECK_NANOS) {
            return null;
        }
        highCheckedAt = now;
        return highBand.exists() ? openHigh() : null;
    }

    /** The high band, made if it does not exist yet (the queue's first task of priority 5 or more). */
    private Band ensureHigh() {
        Band known = high(true);
        if (known != null) {
            return known;
        }
        highBand.create();
        return openHigh();
    }

    private synchronized Band openHigh() {
        if (high == null) {
            high = band(highBand.open(), highBand.group(), true);
            if (closed) {
                closeBand(high);
            }
        }
        return high;
    }

    private Band bandFor(int priority) {
        return PriorityBands.isHigh(priority) ? ensureHigh() : low;
    }

    /** The band a lease is on; {@link StaleLeaseException} for a high-band lease on a handle without one. */
    private Band bandOf(LeaseToken token) {
        if (!PriorityBands.isHighId(token.taskId())) {
            return low;
        }
        Band h = high;
        if (h == null) {
            throw new StaleLeaseException("no lease " + token + " on '" + name + "'");
        }
        return h;
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
     * its id in its band's topic when it is forwarded (a high-priority task's band is made first, so the forward
     * finds it).
     */
    @Override
    public long enqueue(Task task, Durability durability) {
        Band band = bandFor(task.priority());
        if (isDelayed(task)) {
            Entry e = entry(task);
            return delays.send(name, e.headers(), e.payload(), task.deliverAt(), 0);
        }
        return band.id(band.log().append(entry(task), durability));
    }

    private static boolean isDelayed(Task task) {
        return task.deliverAt() > System.currentTimeMillis();
    }

    /** A batch of one band is one append; a batch of both, one append per band; returns the first task's id. */
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
        List<Entry> lows = new ArrayList<>();
        List<Entry> highs = new ArrayList<>();
        for (Task t : tasks) {
            (PriorityBands.isHigh(t.priority()) ? highs : lows).add(entry(t));
        }
        // An empty batch is refused by the low band's append, as before there were bands.
        long lowFirst = lows.isEmpty() && !highs.isEmpty() ? -1 : low.id(low.log().appendBatch(lows, durability));
        long highFirst = -1;
        if (!highs.isEmpty()) {
            Band h = ensureHigh();
            highFirst = h.id(h.log().appendBatch(highs, durability));
        }
        return tasks.isEmpty() || !PriorityBands.isHigh(tasks.get(0).priority()) ? lowFirst : highFirst;
    }

    /** A dead letter, in the band its priority header names; returns its id. */
    private long append(Entry entry) {
        Band band = bandFor(PriorityBands.priority(entry.headers().get(SharedGroup.PRIORITY_HEADER)));
        return band.id(band.log().append(entry, Durability.SYNC));
    }

    /** The Kafka record an enqueue of {@code task} sends (what a transaction sends for it). */
    public ProducerRecord<byte[], byte[]> record(Task task) {
        Band band = bandFor(task.priority());
        if (isDelayed(task)) {
            Entry e = entry(task);
            return delays.record(name, e.headers(), e.payload(), task.deliverAt(), 0);
        }
        return RecordMapping.toKafka(band.log().topic(), entry(task));
    }

    /** The leases of this handle that {@code token} is one of (a transaction checks, renews and settles them). */
    public ShareLeases leases(LeaseToken token) {
        return bandOf(token).leases();
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
     *
     * <p>With a high band, the tasks of one band. Three dequeues in four ask the high band first, and take from the
     * low band only once the cluster has answered, since this dequeue began, that the high band has nothing to hand
     * out: of the tasks ready when a dequeue begins, no low one is taken while a high one is ready (docs/kafka.md,
     * "Priorities", gives the exceptions). The fourth asks the low band first, so a steady high-band load does not
     * starve it.
     */
    @Override
    public List<LeasedTask> dequeue(int max, Duration lease, Duration wait, TaskFilter filter)
            throws InterruptedException {
        filter = GroupMember.unwrap(filter);
        if (filter != null) {
            throw new UnsupportedOperationException("selectors on task queues are not available on Kafka"
                    + " (docs/kafka.md): a share group cannot skip records without acquiring them");
        }
        Band h = high(false);
        if (h == null) {
            return leased(low, low.leases().fetch(max, wait));
        }
        long deadline = System.nanoTime() + wait.toNanos();
        // Both bands' first share consumers start joining at once (a poll that does not wait returns at once).
        for (Band band : List.of(h, low)) {
            if (band.leases().startedAt() == 0) {
                List<ShareLeases.Acquired> got = band.leases().fetch(max, Duration.ZERO, false);
                if (!got.isEmpty()) {
                    return leased(band, got);
                }
            }
        }
        // The turn moves on with each dequeue that takes tasks: one that finds nothing (a JMS receive polls in
        // 100 ms slices) does not hand the next turn to the other band.
        if (!PriorityBands.highFirst(turns.get())) {
            List<ShareLeases.Acquired> got = low.leases().fetch(max, step(deadline), false);
            if (!got.isEmpty()) {
                return leased(low, got);
            }
        }
        while (true) {
            // Nothing from the high band only once its cluster answered a fetch made since this began (for a share
            // consumer that has not joined yet: its join, waited for up to 20 s).
            List<ShareLeases.Acquired> got = h.leases().fetch(max, step(deadline), true);
            if (!got.isEmpty()) {
                return leased(h, got);
            }
            boolean last = System.nanoTime() - deadline >= 0;
            // The last look at the low band is answered by its cluster too: an empty answer is an honest one.
            got = low.leases().fetch(max, step(deadline), last);
            if (!got.isEmpty()) {
                return leased(low, got);
            }
            if (last) {
                return List.of();
            }
        }
    }

    /** A band's poll: {@link #BAND_STEP_NANOS}, or what is left of the dequeue's wait. */
    private static Duration step(long deadline) {
        return Duration.ofNanos(Math.min(BAND_STEP_NANOS, Math.max(0, deadline - System.nanoTime())));
    }

    private List<LeasedTask> leased(Band band, List<ShareLeases.Acquired> acquired) {
        if (high != null && !acquired.isEmpty()) {
            turns.incrementAndGet();
        }
        List<LeasedTask> out = new ArrayList<>(acquired.size());
        for (ShareLeases.Acquired a : acquired) {
            int priority = (int) Math.max(0, Math.min(9,
                    ShareLeases.longHeader(a.headers(), SharedGroup.PRIORITY_HEADER, Task.DEFAULT_PRIORITY)));
            out.add(new LeasedTask(band.id(a.record().offset()), a.token(), a.attempt(), priority,
                    a.record().timestamp(), a.expiresAt(), a.leaseExpiresAt(), a.headers(), a.payload()));
        }
        return out;
    }

    @Override
    public void ack(LeaseToken token) {
        bandOf(token).leases().ack(token);
    }

    /** One commit per band's member; a refusal in one band is thrown once the other band's acks are done. */
    @Override
    public void ack(List<LeaseToken> tokens) {
        forEachBand(tokens, (leases, some) -> leases.ack(some));
    }

    /** Back at once for no delay; else through a delay tier ({@code null}: the queue's backoff). */
    @Override
    public void nack(LeaseToken token, Duration delay, String reason) {
        bandOf(token).leases().nack(token, delay, reason);
    }

    /**
     * A share consumer fetches again only once everything it fetched is acknowledged, as for a shared group; but a
     * member's records are spread over the consumers that took its strays, so a consumer that wrote its own acks
     * before fetching still waits for theirs: with the JMS provider's acks written before each fetch, four
     * consumers of a queue had a p50 of 26 to 32 ms against 15 to 22 ms with batched acks, and 1.6 s while new
     * members were polled through their joins (bench/kafka, docs/performance.md). So a queue's consumers keep their
     * batches.
     */
    @Override
    public boolean fetchWaitsForAcks() {
        return false;
    }

    /** Back to the queue; Kafka still counts the delivery. */
    @Override
    public void returnUndelivered(List<LeaseToken> tokens) {
        forEachBand(tokens, (leases, some) -> leases.returnUndelivered(some));
    }

    private void forEachBand(List<LeaseToken> tokens,
                             java.util.function.BiConsumer<ShareLeases, List<LeaseToken>> settle) {
        List<LeaseToken> lows = new ArrayList<>();
        List<LeaseToken> highs = new ArrayList<>();
        for (LeaseToken t : tokens) {
            (PriorityBands.isHighId(t.taskId()) ? highs : lows).add(t);
        }
        if (highs.isEmpty()) {
            settle.accept(low.leases(), lows);
            return;
        }
        Band h = bandOf(highs.get(0));
        RuntimeException failed = null;
        for (Map.Entry<ShareLeases, List<LeaseToken>> e : Map.of(low.leases(), lows, h.leases(), highs).entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            try {
                settle.accept(e.getKey(), e.getValue());
            } catch (RuntimeException ex) {
                failed = failed == null ? ex : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Renews the acquisition lock by the group's lock duration ({@code lease} cannot be chosen on Kafka). */
    @Override
    public long extend(LeaseToken token, Duration lease) {
        return bandOf(token).leases().extend(token);
    }

    /**
     * Not a view of the share groups' state (Kafka shows it to no one): the records from each band's start offset
     * on, the high band's first.
     */
    @Override
    public List<LeasedTask> browse(int max, TaskFilter filter) {
        if (filter != null) {
            throw new UnsupportedOperationException("selectors on task queues are not available on Kafka");
        }
        List<LeasedTask> out = new ArrayList<>();
        for (Band band : bands()) {
            if (out.size() >= max) {
                break;
            }
            for (Record r : band.log().read(groupStart(band), max - out.size())) {
                Headers headers = r.headers();
                out.add(new LeasedTask(band.id(r.offset()), null, 0,
                        (int) ShareLeases.longHeader(headers, SharedGroup.PRIORITY_HEADER, Task.DEFAULT_PRIORITY),
                        r.timestamp(), ShareLeases.longHeader(headers, SharedGroup.EXPIRES_AT_HEADER, 0), 0, headers,
                        r.payload() == null ? new byte[0] : r.payload()));
            }
        }
        return out;
    }

    /** The bands that exist, the high one first. */
    private List<Band> bands() {
        Band h = high(true);
        return h == null ? List.of(low) : List.of(h, low);
    }

    /** The band's share group's start offset: below it every record is finished. */
    private long groupStart(Band band) {
        KafkaLogQueue log = band.log();
        TopicPartition tp = new TopicPartition(log.topic(), 0);
        String group = band.group();
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

    /** Deletes both bands' records up to their ends (Kafka's delete-records); leased tasks go with them. */
    @Override
    public long purge() {
        long purged = 0;
        for (Band band : bands()) {
            long start = groupStart(band);
            long end = band.log().endOffset();
            band.log().deleteBefore(end);
            purged += Math.max(0, end - start);
        }
        return purged;
    }

    /** Ready: records past the groups' start offsets not handed out by this handle (others' leases are not seen). */
    @Override
    public TaskCounts counts() {
        long ready = 0;
        long inFlight = 0;
        for (Band band : bands()) {
            long held = band.leases().inFlight();
            ready += Math.max(0, Math.max(0, band.log().endOffset() - groupStart(band)) - held);
            inFlight += held;
        }
        return new TaskCounts(ready, 0, inFlight);
    }

    @Override
    public TaskQueue deadLetters() {
        return isDeadLetterQueue ? null : deadLetterQueue.apply(name + DEAD_LETTER_SUFFIX);
    }

    /**
     * Start and end offsets are the low band's topic's (the ids of high-band tasks carry {@link
     * PriorityBands#HIGH_ID_BIT}); the counts of records, appends and reads are both bands' sums.
     */
    @Override
    public QueueStats stats() {
        QueueStats s = low.log().stats();
        long records = s.records();
        long appended = s.appendedRecords();
        long appendedBytes = s.appendedBytes();
        long read = s.readRecords();
        Band h = high(true);
        if (h != null) {
            QueueStats hs = h.log().stats();
            records += hs.records();
            appended += hs.appendedRecords();
            appendedBytes += hs.appendedBytes();
            read += hs.readRecords();
        }
        return new QueueStats(name, QueueKind.TASK, s.startOffset(), s.endOffset(), records, 0, 0,
                appended, appendedBytes, read, 0, 0);
    }

    @Override
    public synchronized void close() {
        closed = true;
        closeBand(low);
        if (high != null) {
            closeBand(high);
        }
    }

    private static void closeBand(Band band) {
        band.leases().close();
        band.log().close();
    }
}
