package io.mikyu.kafka.share;

import io.mikyu.kafka.admin.Cluster;

import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One member of a task queue's share group: a share consumer in explicit acknowledgement mode. Kafka lets a member
 * fetch again only once every record of its last fetch is acknowledged, while a mikyu consumer may hold leases and
 * dequeue more; so a queue keeps several members and fetches with one that holds nothing ({@link #claimIfIdle()}).
 * Calls take turns on the consumer's lock (a Kafka client serves one thread at a time).
 */
final class ShareMember implements AutoCloseable {

    private final KafkaShareConsumer<byte[], byte[]> consumer;
    private final ReentrantLock lock = new ReentrantLock();
    private int outstanding;
    /** Claimed by one fetching thread ({@link #claimIfIdle()}) until its poll has counted what it acquired. */
    private boolean claimed;

    ShareMember(Cluster cluster, String group, String topic, int maxRecords) {
        Map<String, Object> props = cluster.consumerSettings("tasks");
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit");
        // Acquire no more than asked: records a member acquires and does not hand out would sit locked.
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
        if (outstanding != 0 || claimed) {
            return false;
        }
        claimed = true;
        return true;
    }

    /** Fetches, once claimed; the records are outstanding until each is acknowledged. Ends the claim. */
    ConsumerRecords<byte[], byte[]> poll(Duration wait) {
        lock.lock();
        try {
            ConsumerRecords<byte[], byte[]> records = ConsumerRecords.empty();
            try {
                records = consumer.poll(wait);
            } finally {
                synchronized (this) {
                    outstanding += records.count();
                    claimed = false;
                }
            }
            return records;
        } finally {
            lock.unlock();
        }
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
     * Acknowledges one record as {@code type} and waits until the share-partition leader took it; returns Kafka's
     * refusal (e.g. the lock ran out and the record went to another member), or {@code null}.
     */
    KafkaException acknowledge(ConsumerRecord<byte[], byte[]> record, AcknowledgeType type) {
        lock.lock();
        try {
            consumer.acknowledge(record, type);
            Map<TopicIdPartition, Optional<KafkaException>> results = consumer.commitSync(Cluster.CALL_TIMEOUT);
            if (type != AcknowledgeType.RENEW) {
                synchronized (this) {
                    outstanding--;
                }
            }
            return firstRefusal(results);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Accepts several records with one commit (one round trip to the share-partition leader, not one per record);
     * returns Kafka's refusal of any of them, or {@code null}. A refusal does not say which records: those whose
     * acknowledgement was taken are finished, the others come again when their locks end.
     */
    KafkaException acceptAll(List<ConsumerRecord<byte[], byte[]>> records) {
        lock.lock();
        try {
            KafkaException refused = null;
            int accepted = 0;
            for (ConsumerRecord<byte[], byte[]> r : records) {
                try {
                    consumer.acknowledge(r, AcknowledgeType.ACCEPT);
                    accepted++;
                } catch (IllegalStateException e) {
                    // The client refuses this copy (Kafka 4.4, after a renewal: docs/kafka.md, lease extension);
                    // it stays outstanding, as after a refused single ack. The others are acknowledged all the same.
                    refused = refused == null ? new KafkaException(e.getMessage(), e) : refused;
                }
            }
            Map<TopicIdPartition, Optional<KafkaException>> results = consumer.commitSync(Cluster.CALL_TIMEOUT);
            synchronized (this) {
                outstanding -= accepted;
            }
            KafkaException commitRefused = firstRefusal(results);
            return refused != null ? refused : commitRefused;
        } finally {
            lock.unlock();
        }
    }

    private static KafkaException firstRefusal(Map<TopicIdPartition, Optional<KafkaException>> results) {
        for (Optional<KafkaException> result : results.values()) {
            if (result.isPresent()) {
                return result.get();
            }
        }
        return null;
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
