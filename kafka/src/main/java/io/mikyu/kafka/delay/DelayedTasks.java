package io.mikyu.kafka.delay;

import io.mikyu.engine.Headers;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.SharedGroup;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.admin.TopicNames;
import io.mikyu.kafka.record.RecordMapping;

import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tasks that are not to be delivered yet (a {@code deliverAt} in the future, a nack with a delay): written to a
 * delay tier ({@link DelayTiers}) with the name of their task queue, and forwarded to it when due by the store's
 * {@link DelayForwarder}, which this starts on first use.
 */
public final class DelayedTasks implements AutoCloseable {

    /** The task queue a delayed record is for. */
    public static final String QUEUE_HEADER = "mikyu.delay.queue";
    /** Deliveries the task had before it was written again with a delay (a nack with a delay): attempts go on. */
    public static final String PRIOR_ATTEMPTS_HEADER = "mikyu.attempts";

    private final Cluster cluster;
    private final TopicNames names;
    private final DelayTiers tiers;
    private final Set<Integer> madeTiers = ConcurrentHashMap.newKeySet();
    private DelayForwarder forwarder;
    private boolean closed;

    public DelayedTasks(Cluster cluster, TopicNames names) {
        this.cluster = cluster;
        this.names = names;
        this.tiers = new DelayTiers(names.prefix());
    }

    /**
     * The record that holds a task for task queue {@code queue} until {@code deliverAt}: its headers are the
     * task's, with {@code deliverAt}, the queue and the deliveries it had ({@code priorAttempts}, 0 for a new task).
     */
    public ProducerRecord<byte[], byte[]> record(String queue, Headers headers, byte[] payload, long deliverAt,
                                                 int priorAttempts) {
        long now = System.currentTimeMillis();
        int tier = DelayTiers.tierFor(deliverAt - now);
        Headers.Builder h = Headers.builder();
        for (Headers.Header header : headers.asList()) {
            String name = header.name();
            if (!name.equals(SharedGroup.DELIVER_AT_HEADER) && !name.equals(QUEUE_HEADER)
                    && !name.equals(PRIOR_ATTEMPTS_HEADER)) {
                h.add(name, header.value());
            }
        }
        h.add(SharedGroup.DELIVER_AT_HEADER, Long.toString(deliverAt));
        h.add(QUEUE_HEADER, queue);
        if (priorAttempts > 0) {
            h.add(PRIOR_ATTEMPTS_HEADER, Integer.toString(priorAttempts));
        }
        return new ProducerRecord<>(tierTopic(tier), 0, now, null, payload, RecordMapping.kafkaHeaders(h.build()));
    }

    /** Writes {@link #record} (acknowledged by {@code acks=all}) and returns its offset in its tier. */
    public long send(String queue, Headers headers, byte[] payload, long deliverAt, int priorAttempts) {
        return Cluster.await(cluster.producer().send(record(queue, headers, payload, deliverAt, priorAttempts)),
                "write a delayed task for '" + queue + "'").offset();
    }

    /** The topic of a tier, made if this handle has not made or seen it yet. */
    private String tierTopic(int tier) {
        String topic = tiers.topic(tier);
        if (madeTiers.add(tier)) {
            try {
                // Kept until forwarded: the forwarder deletes what its group has committed past.
                cluster.createTopic(topic, "delay tier " + tier, Map.of("retention.ms", "-1"));
            } catch (QueueExistsException e) {
                // Made by another client.
            } catch (RuntimeException e) {
                madeTiers.remove(tier);
                throw e;
            }
        }
        return topic;
    }

    /**
     * Starts the store's forwarder if it is not running: a handle that opens a task queue forwards the delayed
     * tasks of every queue of the store (the tiers' consumer group spreads the tiers over the handles).
     */
    public synchronized void ensureForwarding() {
        if (forwarder == null && !closed) {
            forwarder = new DelayForwarder(cluster, names, tiers);
            forwarder.start();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (forwarder != null) {
            forwarder.close();
            forwarder = null;
        }
    }
}
