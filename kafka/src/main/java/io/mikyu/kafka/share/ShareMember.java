package io.mikyu.kafka.share;

import io.mikyu.kafka.admin.Cluster;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicIdPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One member of a task queue's share group: a share consumer in explicit acknowledgement mode. Kafka lets a member
 * fetch again only once every record of its last fetch is acknowledged, while a mikyu consumer may hold leases and
 * dequeue more; so a queue keeps several members and fetches with one that holds nothing ({@link #claimIfIdle()}).
 * Calls take turns on the consumer's lock (a Kafka client serves one thread at a time).
 *
 * <p>Renewal ({@link #renew}): Kafka 4.4's share consumer takes a renewed record out of its fetch once the renewal is
 * committed and puts it back only in the next poll; until then any acknowledgement of it, a second renewal included,
 * throws {@code IllegalStateException} ("The record cannot be acknowledged"). And in explicit acknowledgement mode a
 * poll is allowed only once every record of the fetch is acknowledged. So a renewal renews every record the member
 * holds and polls at once: that poll hands the renewed records back without fetching more, and each can be
 * acknowledged, or renewed, again.
 */
final class ShareMember implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ShareMember.class.getName());
    /** How long a renewal waits for the consumer to hand its renewed records back (a few local polls). */
    private static final Duration TAKE_BACK = Duration.ofSeconds(5);
    /**
     * How long after a poll that returned records the sweep looks for a share fetch it left running: a running
     * fetch is answered, empty if need be, within the consumer's fetch wait (500 ms), later on a loaded machine.
     */
    private static final Duration WATCH = Duration.ofSeconds(3);

    private final KafkaShareConsumer<byte[], byte[]> consumer;
    private final ReentrantLock lock = new ReentrantLock();
    /** The records fetched and not yet accepted, released or rejected, by offset (one topic partition). */
    private final Map<Long, ConsumerRecord<byte[], byte[]>> held = new HashMap<>();
    /** Claimed by one fetching thread ({@link #claimIfIdle()}) until its poll has counted what it acquired. */
    private boolean claimed;
    /**
     * Its last poll returned nothing. Kafka 4.4's share consumer then goes on fetching in the background until a
     * fetch acquires records, and keeps them in its buffer until the next poll: records this member holds under
     * lock although no one asked for them ({@link ShareLeases} collects them). A poll that returns records can leave
     * a fetch running too (its ask for the next fetch was seen to come after the answer it returned, and it follows
     * a poll that took what was in the buffer): {@link #armed()} tells by the share fetches answered since.
     */
    private volatile boolean armed;
    /** When its last renewal that Kafka took was sent: every record it held then was acquired anew. */
    private volatile long renewedAt;
    /** Kafka refused (or did not answer) an acknowledgement of it since its last poll or renewal: {@link #doubted()}. */
    private volatile boolean doubted;
    /** The share fetches answered when the last poll returned ({@link #fetchesAnswered}). */
    private volatile long answeredAtPoll;
    /** Until when (epoch millis) a fetch left running by the last poll would have been answered at the latest. */
    private volatile long watchUntil;
    /** The sweep leaves this member alone until its next poll ({@link #park}). */
    private volatile boolean parked;
    /**
     * When its last poll began (epoch millis; when it was made, before the first): a record its consumer fetched in
     * the background since, and kept in its buffer, was acquired no earlier (that poll may have started the fetch).
     */
    private long lastPollAt = System.currentTimeMillis();
    /** The consumer's count of share fetches answered ({@code fetch-total}), looked up once. */
    private volatile Metric fetchTotal;
    /** Set once the cluster answered a share fetch of this member: it has joined the group ({@link #joined()}). */
    private volatile boolean joined;
    /** When a fetch last polled this member, or it last settled a record ({@link System#nanoTime()}). */
    private long lastUsed = System.nanoTime();

    ShareMember(Cluster cluster, String group, String topic, int maxRecords) {
        Map<String, Object> props = cluster.consumerSettings("tasks");
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        // Acquire at most maxRecords per share fetch (Kafka's batches could be larger): what no fetch of the handle
        // takes sits locked until ShareLeases releases it.
        props.put(ConsumerConfig.SHARE_ACQUIRE_MODE_CONFIG, "record_limit");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxRecords);
        this.consumer = new KafkaShareConsumer<>(props);
        consumer.subscribe(List.of(topic));
    }

    /**
     * Claims this member for one {@link #poll} if every record it acquired is acknowledged and no other thread
     * claimed it: two threads that both found it idle would otherwise poll it in turn, and the second poll fails
     * ({@code IllegalStateException}: all records must be acknowledged) while the first one's records are held.
     */
    synchronized boolean claimIfIdle() {
        if (!held.isEmpty() || claimed) {
            return false;
        }
        claimed = true;
        return true;
    }

    /**
     * Claims this member, for good, if it holds nothing, no one claimed it and neither a fetch polled it nor it
     * settled a record for {@code idleNanos} before {@code now}: a member {@link ShareMembers} retires.
     */
    synchronized boolean claimIfIdleFor(long idleNanos, long now) {
        if (!held.isEmpty() || claimed || now - lastUsed < idleNanos) {
            return false;
        }
        claimed = true;
        return true;
    }

    /** Whether it holds nothing and no one claimed it. */
    synchronized boolean idle() {
        return held.isEmpty() && !claimed;
    }

    /**
     * What a {@link #poll} returned, and the earliest its records may have been acquired: records the consumer had
     * fetched in the background and kept in its buffer, no earlier than the start of the member's previous poll;
     * records a share fetch answered while the poll waited, when the poll returned them (give or take the answer's
     * way from the broker), as Kafka's consumer hands them to its application.
     */
    record Polled(ConsumerRecords<byte[], byte[]> records, long acquiredFrom) {
    }

    /**
     * A fetch's poll, once claimed; the records are outstanding until each is acknowledged. Ends the claim. What the
     * consumer's buffer holds is taken first, without waiting, so that it is told apart from what a fetch answered
     * meanwhile ({@link Polled#acquiredFrom()}).
     */
    Polled poll(Duration wait) {
        return poll(wait, true, false);
    }

    /**
     * A poll that does not wait, once claimed, for what a fetch running in the background acquired (a sweep's):
     * unlike a fetch's, it does not count as a use that keeps the member from being retired. Ends the claim.
     */
    Polled collect() {
        return poll(Duration.ZERO, false, false);
    }

    /**
     * The last poll of a member being retired (claimed by {@link #claimIfIdleFor}): what a fetch in the background
     * acquired since the sweep's last collection. Empty: the claim stays, for good; else it ends, and the member
     * holds the records.
     */
    Polled collectBeforeClose() {
        return poll(Duration.ZERO, false, true);
    }

    private Polled poll(Duration wait, boolean use, boolean retiring) {
        lock.lock();
        try {
            ConsumerRecords<byte[], byte[]> records = ConsumerRecords.empty();
            long acquiredFrom = lastPollAt;
            // It holds nothing (claimed idle): a refusal before says nothing of what this poll acquires.
            doubted = false;
            try {
                records = pollConsumer(Duration.ZERO);
                if (records.isEmpty() && !wait.isZero()) {
                    records = consumer.poll(wait);
                    acquiredFrom = System.currentTimeMillis();
                }
            } finally {
                polled();
                synchronized (this) {
                    records.forEach(r -> held.put(r.offset(), r));
                    armed = records.isEmpty();
                    parked = false;
                    claimed = retiring && records.isEmpty();
                    if (use || !records.isEmpty()) {
                        lastUsed = System.nanoTime();
                    }
                }
            }
            if (!records.isEmpty()) {
                joined = true;
            }
            return new Polled(records, acquiredFrom);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether it has joined the group: the cluster answered one of its share fetches (or the client does not say,
     * {@link #fetchesAnswered()}). Until then it cannot fetch, and a poll of it waits for its join.
     */
    boolean joined() {
        if (!joined && fetchesAnswered() != 0) {
            joined = true;
        }
        return joined;
    }

    /** Polls the consumer, noting when: a poll may leave a share fetch running in the background (see armed). */
    private ConsumerRecords<byte[], byte[]> pollConsumer(Duration wait) {
        lastPollAt = System.currentTimeMillis();
        return consumer.poll(wait);
    }

    /** Notes what a fetch left running by the poll just made would change, and how long to look for it. */
    private void polled() {
        answeredAtPoll = fetchesAnswered();
        watchUntil = System.currentTimeMillis() + WATCH.toMillis();
    }

    /**
     * The sweep stops polling this member: it gave back what the member acquired with no fetch waiting for it, and
     * polled on, the member would acquire them again and again, each time counted. A fetch still polls it.
     */
    void park() {
        parked = true;
    }

    /**
     * Whether a fetch of this member may have acquired records that wait in its buffer, or be running, so that the
     * sweep polls it: its last poll returned nothing, or a share fetch was answered since; not while parked.
     */
    boolean armed() {
        return !parked && fetchedSincePoll();
    }

    /** As {@link #armed()}, parked or not: what a waiting fetch polls. */
    boolean fetchedSincePoll() {
        return armed || fetchesAnswered() > answeredAtPoll;
    }

    /** Whether a fetch left running by the last poll may not have been answered yet: the sweep looks on till then. */
    boolean watched() {
        return !parked && System.currentTimeMillis() < watchUntil;
    }

    /** Whether the member still holds the record at {@code offset} (a refused renewal drops all it held). */
    synchronized boolean holds(long offset) {
        return held.containsKey(offset);
    }

    /** When Kafka last took a renewal of everything this member held, or 0. */
    long renewedAt() {
        return renewedAt;
    }

    /**
     * Whether Kafka refused an acknowledgement of this member, or left it unanswered, since its last poll or renewal:
     * its share partition's leader may have moved (the new leader refuses an acknowledgement of a record acquired
     * from the old one: not the leader, or the record's state is not this member's acquisition), or a lock ended.
     * What it still holds unhanded may be a stale copy.
     */
    boolean doubted() {
        return doubted;
    }

    /**
     * How many share fetches the cluster has answered this member: it does not change before the member has joined
     * the group and been assigned the queue's partition, so above 0 it has joined. {@code -1} if the client does not
     * say. Read without the consumer's lock, which a poll holds.
     */
    long fetchesAnswered() {
        Metric m = fetchTotal;
        if (m == null) {
            for (Map.Entry<MetricName, ? extends Metric> e : consumer.metrics().entrySet()) {
                if (e.getKey().name().equals("fetch-total") && e.getKey().group().endsWith("fetch-manager-metrics")) {
                    m = e.getValue();
                    fetchTotal = m;
                    break;
                }
            }
            if (m == null) {
                return -1;
            }
        }
        return (long) ((Number) m.metricValue()).doubleValue();
    }

    /** The lock duration the group gave this member's records, if known. */
    Optional<Integer> lockMillis() {
        lock.lock();
        try {
            return consumer.acquisitionLockTimeoutMs();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Acknowledges one record as {@code type} ({@code ACCEPT}, {@code RELEASE}, {@code REJECT}) and waits until the
     * share-partition leader took it; returns Kafka's refusal (e.g. the lock ran out and the record went to another
     * member), or {@code null}. Either way the member no longer holds the record.
     */
    KafkaException acknowledge(ConsumerRecord<byte[], byte[]> record, AcknowledgeType type) {
        if (type == AcknowledgeType.RENEW) {
            throw new IllegalArgumentException("a renewal is renew(record)");
        }
        lock.lock();
        try {
            synchronized (this) {
                if (held.remove(record.offset()) == null) {
                    return new KafkaException("offset " + record.offset() + " is not held by this member");
                }
                lastUsed = System.nanoTime();
            }
            consumer.acknowledge(record, type);
            return doubtIf(refusal(consumer.commitSync(Cluster.CALL_TIMEOUT), record));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Accepts several records with one commit (one round trip to the share-partition leader, not one per record);
     * returns Kafka's refusal of any of them, or {@code null}. A refusal does not say which records: those whose
     * acknowledgement was taken are finished, the others come again when their locks end. Either way the member no
     * longer holds them.
     */
    KafkaException acceptAll(List<ConsumerRecord<byte[], byte[]>> records) {
        lock.lock();
        try {
            KafkaException refused = null;
            for (ConsumerRecord<byte[], byte[]> r : records) {
                synchronized (this) {
                    if (held.remove(r.offset()) == null) {
                        refused = refused == null
                                ? new KafkaException("offset " + r.offset() + " is not held by this member") : refused;
                        continue;
                    }
                    lastUsed = System.nanoTime();
                }
                consumer.acknowledge(r, AcknowledgeType.ACCEPT);
            }
            KafkaException commitRefused = records.isEmpty() ? null
                    : refusal(consumer.commitSync(Cluster.CALL_TIMEOUT), records.get(0));
            return refused != null ? refused : doubtIf(commitRefused);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Renews the acquisition lock of {@code record}, and of every other record this member holds (see the class
     * comment: Kafka's consumer gives a renewed record back only in a poll, which it allows only once nothing of its
     * fetch is left unacknowledged); returns Kafka's refusal, or {@code null}. A refused renewal loses the records
     * for this member: Kafka's consumer drops them, and the group hands them out again when their locks end.
     */
    KafkaException renew(ConsumerRecord<byte[], byte[]> record) {
        lock.lock();
        try {
            List<ConsumerRecord<byte[], byte[]>> renewing;
            synchronized (this) {
                if (!held.containsKey(record.offset())) {
                    return new KafkaException("offset " + record.offset() + " is not held by this member");
                }
                renewing = List.copyOf(held.values());
            }
            for (ConsumerRecord<byte[], byte[]> r : renewing) {
                consumer.acknowledge(r, AcknowledgeType.RENEW);
            }
            long sentAt = System.currentTimeMillis();
            KafkaException refused = refusal(consumer.commitSync(Cluster.CALL_TIMEOUT), record);
            if (refused != null) {
                synchronized (this) {
                    renewing.forEach(r -> held.remove(r.offset()));
                }
                return refused;
            }
            refused = takeBack(renewing);
            if (refused == null) {
                renewedAt = sentAt;
                doubted = false;
            }
            return refused;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Polls until the consumer has handed the renewed records back into its fetch (it does in the first poll after
     * the renewal's answer was processed, without fetching). A record polled that this member did not hold cannot
     * be handed out by this call: it is released.
     */
    private KafkaException takeBack(List<ConsumerRecord<byte[], byte[]>> renewed) {
        long deadline = System.nanoTime() + TAKE_BACK.toNanos();
        Set<Long> missing = new HashSet<>();
        renewed.forEach(r -> missing.add(r.offset()));
        while (!missing.isEmpty() && System.nanoTime() - deadline < 0) {
            for (ConsumerRecord<byte[], byte[]> r : pollConsumer(Duration.ofMillis(10))) {
                if (!missing.remove(r.offset())) {
                    synchronized (this) {
                        if (held.containsKey(r.offset())) {
                            continue;
                        }
                    }
                    consumer.acknowledge(r, AcknowledgeType.RELEASE);
                    consumer.commitSync(Cluster.CALL_TIMEOUT);
                }
            }
        }
        // These polls may have left a share fetch running, which acquires records while the renewed ones are held.
        polled();
        if (missing.isEmpty()) {
            return null;
        }
        synchronized (this) {
            missing.forEach(held::remove);
        }
        return new KafkaException("the consumer did not hand back renewed offsets " + missing + " within " + TAKE_BACK);
    }

    /** Notes a refusal ({@link #doubted()}); returns it. */
    private KafkaException doubtIf(KafkaException refused) {
        if (refused != null) {
            doubted = true;
        }
        return refused;
    }

    /**
     * Kafka's refusal of the acknowledgements just committed for {@code record}'s partition, or {@code null} if the
     * share-partition leader took them. A commit whose answer leaves the partition out is a refusal too: nothing
     * says the leader took them, and taken for done, an ack whose record came again once its lock ended would be a
     * duplicate no one was told of (KafkaBrokerFailureTest).
     */
    private static KafkaException refusal(Map<TopicIdPartition, Optional<KafkaException>> results,
                                          ConsumerRecord<byte[], byte[]> record) {
        boolean answered = false;
        for (Map.Entry<TopicIdPartition, Optional<KafkaException>> e : results.entrySet()) {
            if (e.getValue().isPresent()) {
                return e.getValue().get();
            }
            TopicIdPartition tip = e.getKey();
            answered |= tip.partition() == record.partition()
                    && (tip.topic() == null || tip.topic().equals(record.topic()));
        }
        if (answered) {
            return null;
        }
        KafkaException notSent = new KafkaException("the acknowledgement of offset " + record.offset() + " of "
                + record.topic() + "-" + record.partition() + " had no answer from the partition's leader");
        LOG.log(System.Logger.Level.WARNING, notSent.getMessage());
        return notSent;
    }

    /** Ends a fetch in progress (on close of the queue). */
    void wakeup() {
        consumer.wakeup();
    }

    @Override
    public void close() {
        lock.lock();
        try {
            consumer.close(Duration.ofSeconds(5));
        } finally {
            lock.unlock();
        }
    }
}
