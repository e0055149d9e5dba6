package io.mikyu.kafka.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.PreparedAhead;
import io.mikyu.engine.Task;
import io.mikyu.engine.spi.BufferedTransaction;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.share.ShareLeases;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

/**
 * A transaction on Kafka: its appends and enqueues are sent, and its consumer-group offsets committed, in one Kafka
 * transaction ({@link TransactionalProducers}), so {@code read_committed} readers see all of them or none. The acks
 * and nacks of leased tasks and shared-group records cannot join a Kafka transaction (share-group acknowledgements
 * are not transactional in Kafka), so they are held: checked before the Kafka commit, and applied after it. A crash between the two leaves the consumed records leased until their locks
 * end; Kafka then delivers them again with their delivery count raised: a flagged duplicate, never a loss.
 *
 * <p>A commit returns once its records and offsets can be read ({@link CommitVisibility}).
 *
 * <p>Nothing is written before {@link #commit()}: a rollback, or a failed commit, leaves the queues as they were and
 * the leases with their holder (who nacks them, or lets them run out, as with the embedded engine).
 */
public final class KafkaTransaction extends BufferedTransaction<KafkaTransaction.Op> {

    private static final String NO_XA = "XA is not available on the Kafka backend: a Kafka transaction cannot be"
            + " prepared for an outside transaction manager and decided later (docs/kafka.md)";

    /** One buffered operation. */
    sealed interface Op permits Send, Settle, Offset {
    }

    private record Send(ProducerRecord<byte[], byte[]> record) implements Op {
    }

    private record Settle(ShareLeases leases, LeaseToken token, boolean nack, Duration delay, String reason)
            implements Op {
    }

    private record Offset(String groupId, TopicPartition partition, long nextOffset) implements Op {
    }

    private final TransactionTargets targets;
    private final TransactionalProducers producers;
    private final Cluster cluster;

    public KafkaTransaction(TransactionTargets targets, TransactionalProducers producers, Cluster cluster) {
        this.targets = targets;
        this.producers = producers;
        this.cluster = cluster;
    }

    // Each operation is resolved when added: a queue that does not exist is refused then, not at commit.

    @Override
    protected Op appendOp(String logQueue, Entry entry) {
        return new Send(targets.logRecord(logQueue, entry));
    }

    @Override
    protected Op enqueueOp(String taskQueue, Task task) {
        return new Send(targets.taskRecord(taskQueue, task));
    }

    @Override
    protected Op settleOp(String taskQueue, LeaseToken token, boolean nack, Duration delay, String reason) {
        return new Settle(targets.taskLeases(taskQueue, token), token, nack, delay, reason);
    }

    @Override
    protected Op settleSharedOp(String logQueue, String group, LeaseToken token, boolean nack, Duration delay,
                                String reason) {
        return new Settle(targets.sharedLeases(logQueue, group), token, nack, delay, reason);
    }

    @Override
    protected Op commitOffsetOp(String logQueue, String group, long nextOffset) {
        if (nextOffset < 0) {
            throw new IllegalArgumentException("an offset cannot be negative: " + nextOffset);
        }
        return new Offset(targets.consumerGroupId(logQueue, group), targets.logPartition(logQueue), nextOffset);
    }

    /**
     * Checks the held leases (a lease no longer held: {@link StaleLeaseException}, nothing written), commits the
     * sends and offsets in one Kafka transaction, then applies the acks and nacks. An ack Kafka refuses after the
     * commit (the lock ran out meanwhile) is not thrown: the transaction is committed, and the record comes again
     * with its delivery count raised.
     */
    @Override
    protected void commitOps(List<Op> ops) {
        List<ProducerRecord<byte[], byte[]>> sends = new ArrayList<>();
        Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets = new LinkedHashMap<>();
        List<Settle> settles = new ArrayList<>();
        for (Op op : ops) {
            if (op instanceof Send s) {
                sends.add(s.record());
            } else if (op instanceof Settle s) {
                settles.add(s);
            } else if (op instanceof Offset o) {
                offsets.computeIfAbsent(o.groupId(), g -> new LinkedHashMap<>())
                        .put(o.partition(), new OffsetAndMetadata(o.nextOffset()));
            }
        }
        for (Settle s : settles) {
            s.leases().keep(s.token());
        }
        if (!sends.isEmpty() || !offsets.isEmpty()) {
            List<Future<RecordMetadata>> sent = new ArrayList<>(sends.size());
            producers.commit(producer -> {
                for (ProducerRecord<byte[], byte[]> r : sends) {
                    sent.add(producer.send(r));
                }
                // A mikyu consumer group has no members: the group's metadata is its id alone (generation -1).
                offsets.forEach((group, partitions) ->
                        producer.sendOffsetsToTransaction(partitions, new ConsumerGroupMetadata(group)));
            });
            Map<TopicPartition, Long> lastWritten = new HashMap<>();
            for (Future<RecordMetadata> f : sent) {
                RecordMetadata m = Cluster.await(f, "read a committed record's offset");
                lastWritten.merge(new TopicPartition(m.topic(), m.partition()), m.offset(), Math::max);
            }
            CommitVisibility.await(cluster, lastWritten, offsets.keySet());
        }
        for (Settle s : settles) {
            try {
                if (s.nack()) {
                    s.leases().nack(s.token(), s.delay(), s.reason());
                } else {
                    s.leases().ack(s.token());
                }
            } catch (RuntimeException e) {
                // Committed all the same (a lock that ended, a client that refused): Kafka delivers the record
                // again, its delivery count raised.
            }
        }
    }

    @Override
    protected void prepareOps(byte[] xid, String owner, List<Op> ops) {
        throw new UnsupportedOperationException(NO_XA);
    }

    @Override
    protected PreparedAhead prepareAheadOps(byte[] xid, String owner, List<Op> ops) {
        throw new UnsupportedOperationException(NO_XA);
    }
}
