package io.mikyu.kafka.txn;

import io.mikyu.engine.MikyuException;
import io.mikyu.kafka.admin.Cluster;

import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Waits until a committed Kafka transaction can be read: Kafka answers a commit once its decision is logged and
 * writes the commit markers to the partitions after, so a {@code read_committed} reader (and a consumer group's
 * offsets) may lag the commit by a moment. mikyu's commit returns once its effects are visible.
 */
final class CommitVisibility {

    private CommitVisibility() {
    }

    /**
     * Waits until each partition's last stable offset is past the offset given for it, and each group's offsets
     * are stable (no transactional commit of them pending).
     */
    static void await(Cluster cluster, Map<TopicPartition, Long> lastWritten, Set<String> groups) {
        long giveUpAt = System.nanoTime() + Cluster.CALL_TIMEOUT.toNanos();
        Map<TopicPartition, Long> waiting = new HashMap<>(lastWritten);
        while (!waiting.isEmpty()) {
            Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
            waiting.keySet().forEach(tp -> specs.put(tp, OffsetSpec.latest()));
            var stable = cluster.admin().listOffsets(specs, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
            for (TopicPartition tp : specs.keySet()) {
                long lso = Cluster.await(stable.partitionResult(tp), "read the stable offset of " + tp).offset();
                if (lso > waiting.get(tp)) {
                    waiting.remove(tp);
                }
            }
            if (waiting.isEmpty()) {
                break;
            }
            if (System.nanoTime() - giveUpAt >= 0) {
                throw new MikyuException("a transaction is committed but its records were not readable within "
                        + Cluster.CALL_TIMEOUT.toSeconds() + " s: " + waiting.keySet());
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MikyuException("interrupted while waiting for a committed transaction to be readable", e);
            }
        }
        for (String group : groups) {
            // requireStable: the coordinator answers once no transactional offset commit of the group is pending.
            Cluster.await(cluster.admin().listConsumerGroupOffsets(group,
                    new ListConsumerGroupOffsetsOptions().requireStable(true)).partitionsToOffsetAndMetadata(),
                    "read the offsets of group " + group);
        }
    }
}
