package io.mikyu.kafka.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Task;
import io.mikyu.kafka.share.ShareLeases;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * What a transaction's operations name, as the store handle knows it: the records an append or enqueue sends, the
 * leases an ack or nack settles, the Kafka group a consumer group's offset is committed for. Each call throws
 * {@link io.mikyu.engine.QueueNotFoundException} for a queue that does not exist.
 */
public interface TransactionTargets {

    /** The record an append of {@code entry} to log queue {@code logQueue} sends. */
    ProducerRecord<byte[], byte[]> logRecord(String logQueue, Entry entry);

    /** The record an enqueue of {@code task} to task queue {@code taskQueue} sends. */
    ProducerRecord<byte[], byte[]> taskRecord(String taskQueue, Task task);

    /** The leases of this handle on task queue {@code taskQueue} that {@code token} is one of (a band's). */
    ShareLeases taskLeases(String taskQueue, LeaseToken token);

    /** The leases this handle holds in shared group {@code group} of log queue {@code logQueue}. */
    ShareLeases sharedLeases(String logQueue, String group);

    /** The partition of log queue {@code logQueue} (whose offsets a consumer group commits). */
    TopicPartition logPartition(String logQueue);

    /** The Kafka consumer group of consumer group {@code group} of log queue {@code logQueue}. */
    String consumerGroupId(String logQueue, String group);
}
