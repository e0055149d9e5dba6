package io.mikyu.kafka.log;

import io.mikyu.engine.Record;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.record.RecordMapping;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Reads a topic by offset: a consumer of no group, assigned the topic's partition and moved to the offset asked for.
 * A Kafka consumer serves one thread at a time, so reads of one queue handle take turns; a reader that waits for new
 * records holds the consumer meanwhile.
 */
final class TopicReader implements AutoCloseable {

    private static final Duration POLL_STEP = Duration.ofMillis(100);

    private final TopicPartition partition;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final ReentrantLock lock = new ReentrantLock();

    TopicReader(Cluster cluster, String topic) {
        Map<String, Object> props = cluster.consumerSettings("reader");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Reads see only what a returned append made durable, never a transaction that may still abort.
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        this.partition = new TopicPartition(topic, 0);
        this.consumer = new KafkaConsumer<>(props);
        consumer.assign(List.of(partition));
    }

    /**
     * Records at or after {@code from}, up to {@code maxRecords} and about {@code maxBytes} (at least one), waiting up
     * to {@code wait} for the first if there is none yet.
     */
    List<Record> read(long from, int maxRecords, long maxBytes, Duration wait) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            long waitUntil = System.nanoTime() + wait.toNanos();
            long giveUpAt = System.nanoTime() + Cluster.CALL_TIMEOUT.toNanos();
            consumer.seek(partition, Math.max(0, from));
            List<Record> out = new ArrayList<>();
            long bytes = 0;
            while (true) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("read of " + partition.topic() + " interrupted");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL_STEP)) {
                    if (r.offset() < from || out.size() >= maxRecords || (!out.isEmpty() && bytes >= maxBytes)) {
                        continue;
                    }
                    Record record = RecordMapping.toMikyu(r);
                    out.add(record);
                    bytes += record.size();
                }
                if (!out.isEmpty()) {
                    return out;
                }
                long end = consumer.endOffsets(List.of(partition)).get(partition);
                boolean atEnd = consumer.position(partition) >= end;
                long now = System.nanoTime();
                if ((atEnd && now - waitUntil >= 0) || now - giveUpAt >= 0) {
                    return out;
                }
            }
        } finally {
            lock.unlock();
        }
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
