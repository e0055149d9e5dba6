package io.mikyu.kafka.delay;

import io.mikyu.engine.QueueKind;
import io.mikyu.engine.SharedGroup;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.admin.TopicNames;
import io.mikyu.kafka.priority.PriorityBands;

import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Forwards the store's delayed tasks when they are due: a member of the consumer group {@code <prefix>.delays} on
 * the delay tiers' topics, each forward (to a lower tier, or to the task queue's topic) a Kafka transaction with
 * the group's offset, so a record is forwarded once even across crashes and rebalances (a forwarder that lost its
 * tiers is fenced by the group's generation). A tier whose next record is not due is paused until it is: records
 * of one tier come due in order ({@link DelayTiers}).
 */
final class DelayForwarder implements AutoCloseable {

    private static final Duration STEP = Duration.ofSeconds(1);
    private static final long DELETE_EVERY_MILLIS = 60_000;

    private final Cluster cluster;
    private final TopicNames names;
    private final DelayTiers tiers;
    private final String groupId;
    private final String transactionalId;
    private final Thread thread;
    private volatile boolean closed;
    private volatile KafkaConsumer<byte[], byte[]> consumer;

    DelayForwarder(Cluster cluster, TopicNames names, DelayTiers tiers) {
        this.cluster = cluster;
        this.names = names;
        this.tiers = tiers;
        this.groupId = names.prefix() + ".delays";
        this.transactionalId = names.prefix() + ".delays." + cluster.clientName() + "." + UUID.randomUUID();
        this.thread = new Thread(this::run, "mikyu-kafka-delays");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        while (!closed) {
            try {
                forwardUntilClosed();
            } catch (WakeupException e) {
                // closing
            } catch (RuntimeException e) {
                // A failed forward is not committed: start again from the group's offsets after a pause.
                pause();
            }
        }
    }

    private void forwardUntilClosed() {
        Map<String, Object> consumerProps = cluster.consumerSettings("delays");
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // New tiers are made while running: see them soon.
        consumerProps.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 2000);
        Map<String, Object> producerProps = cluster.producerSettings("delays");
        producerProps.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        // A forward is small: a forwarder that died in one holds back read_committed readers of the queue briefly.
        producerProps.putIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 10_000);
        Map<TopicPartition, Long> pausedUntil = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProps);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps, new ByteArraySerializer(),
                     new ByteArraySerializer())) {
            consumer = c;
            if (closed) {
                return;
            }
            producer.initTransactions();
            c.subscribe(Pattern.compile(tiers.topicPattern()), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    partitions.forEach(pausedUntil::remove);
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                }
            });
            long lastDelete = System.currentTimeMillis();
            while (!closed) {
                resumeDue(c, pausedUntil);
                ConsumerRecords<byte[], byte[]> records = c.poll(pollWait(pausedUntil));
                if (records.isEmpty()) {
                    continue;
                }
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                List<ProducerRecord<byte[], byte[]>> forwards = new ArrayList<>();
                long now = System.currentTimeMillis();
                for (TopicPartition tp : records.partitions()) {
                    int tier = tiers.tierOf(tp.topic());
                    for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                        long deliverAt = longHeader(r, SharedGroup.DELIVER_AT_HEADER);
                        long due = DelayTiers.forwardAt(tier, r.timestamp(), deliverAt);
                        if (due > now) {
                            c.seek(tp, r.offset());
                            c.pause(List.of(tp));
                            pausedUntil.put(tp, due);
                            break;
                        }
                        ProducerRecord<byte[], byte[]> next = forward(r, deliverAt, now);
                        if (next != null) {
                            forwards.add(next);
                        }
                        offsets.put(tp, new OffsetAndMetadata(r.offset() + 1));
                    }
                }
                if (offsets.isEmpty()) {
                    continue;
                }
                producer.beginTransaction();
                for (ProducerRecord<byte[], byte[]> f : forwards) {
                    producer.send(f);
                }
                producer.sendOffsetsToTransaction(offsets, c.groupMetadata());
                producer.commitTransaction();
                if (now - lastDelete >= DELETE_EVERY_MILLIS) {
                    lastDelete = now;
                    deleteForwarded(offsets);
                }
            }
        } finally {
            consumer = null;
        }
    }

    /**
     * Where a due record goes: its task queue once its time has come, else the tier of what is left; {@code null}
     * if it names no queue, or one that no longer exists (its record is dropped with the queue).
     */
    private ProducerRecord<byte[], byte[]> forward(ConsumerRecord<byte[], byte[]> r, long deliverAt, long now) {
        Header queueHeader = r.headers().lastHeader(DelayedTasks.QUEUE_HEADER);
        if (queueHeader == null || deliverAt <= 0) {
            return null;
        }
        String queue = new String(queueHeader.value(), StandardCharsets.UTF_8);
        long left = deliverAt - now;
        if (left > 0) {
            return new ProducerRecord<>(tiers.topic(DelayTiers.tierFor(left)), 0, now, r.key(), r.value(),
                    r.headers());
        }
        // A high-priority task goes to its queue's high band, made before the task was written to a tier.
        Header priority = r.headers().lastHeader(SharedGroup.PRIORITY_HEADER);
        String topic = PriorityBands.isHigh(PriorityBands.priority(priority == null ? null : priority.value()))
                ? names.highBandTopic(queue) : names.topic(QueueKind.TASK, queue);
        if (!cluster.topicExists(topic)) {
            return null;
        }
        RecordHeaders headers = new RecordHeaders(r.headers().toArray());
        headers.remove(DelayedTasks.QUEUE_HEADER);
        return new ProducerRecord<>(topic, 0, now, r.key(), r.value(), headers);
    }

    private static long longHeader(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        if (h == null) {
            return 0;
        }
        try {
            return Long.parseLong(new String(h.value(), StandardCharsets.UTF_8).trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static void resumeDue(KafkaConsumer<byte[], byte[]> c, Map<TopicPartition, Long> pausedUntil) {
        long now = System.currentTimeMillis();
        List<TopicPartition> due = new ArrayList<>();
        pausedUntil.forEach((tp, at) -> {
            if (at <= now) {
                due.add(tp);
            }
        });
        if (!due.isEmpty()) {
            due.forEach(pausedUntil::remove);
            c.resume(due);
        }
    }

    private static Duration pollWait(Map<TopicPartition, Long> pausedUntil) {
        long wait = STEP.toMillis();
        long now = System.currentTimeMillis();
        for (long at : pausedUntil.values()) {
            wait = Math.min(wait, Math.max(1, at - now));
        }
        return Duration.ofMillis(wait);
    }

    /** Deletes what was forwarded (the tiers keep records until then: {@code retention.ms=-1}). */
    private void deleteForwarded(Map<TopicPartition, OffsetAndMetadata> offsets) {
        Map<TopicPartition, RecordsToDelete> below = new HashMap<>();
        offsets.forEach((tp, o) -> below.put(tp, RecordsToDelete.beforeOffset(o.offset())));
        try {
            Cluster.await(cluster.admin().deleteRecords(below).all(), "delete forwarded delayed tasks");
        } catch (RuntimeException e) {
            // Done again at the next forward a minute on.
        }
    }

    private void pause() {
        try {
            Thread.sleep(STEP.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    @Override
    public void close() {
        closed = true;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        try {
            thread.join(Duration.ofSeconds(5).toMillis());
            if (thread.isAlive()) {
                // Still starting (initTransactions waits for the coordinator) or committing: interrupt it.
                thread.interrupt();
                thread.join(Duration.ofSeconds(25).toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
