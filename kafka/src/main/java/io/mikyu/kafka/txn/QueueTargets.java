package io.mikyu.kafka.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Task;
import io.mikyu.kafka.admin.TopicNames;
import io.mikyu.kafka.log.KafkaLogQueue;
import io.mikyu.kafka.record.RecordMapping;
import io.mikyu.kafka.share.ShareLeases;
import io.mikyu.kafka.task.KafkaTaskQueue;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

import java.util.function.Function;

/** A transaction's targets as the queue handles of one store handle give them. */
public final class QueueTargets implements TransactionTargets {

    private final Function<String, KafkaLogQueue> logs;
    private final Function<String, KafkaTaskQueue> tasks;
    private final TopicNames names;

    /**
     * @param logs  the handle of a log queue by name ({@code QueueNotFoundException} if none)
     * @param tasks the handle of a task queue by name ({@code QueueNotFoundException} if none)
     */
    public QueueTargets(Function<String, KafkaLogQueue> logs, Function<String, KafkaTaskQueue> tasks,
                        TopicNames names) {
        this.logs = logs;
        this.tasks = tasks;
        this.names = names;
    }

    @Override
    public ProducerRecord<byte[], byte[]> logRecord(String logQueue, Entry entry) {
        return RecordMapping.toKafka(logs.apply(logQueue).topic(), entry);
    }

    @Override
    public ProducerRecord<byte[], byte[]> taskRecord(String taskQueue, Task task) {
        return tasks.apply(taskQueue).record(task);
    }

    @Override
    public ShareLeases taskLeases(String taskQueue, LeaseToken token) {
        return tasks.apply(taskQueue).leases(token);
    }

    @Override
    public ShareLeases sharedLeases(String logQueue, String group) {
        return logs.apply(logQueue).sharedLeases(group);
    }

    @Override
    public TopicPartition logPartition(String logQueue) {
        return new TopicPartition(logs.apply(logQueue).topic(), 0);
    }

    @Override
    public String consumerGroupId(String logQueue, String group) {
        logs.apply(logQueue);
        return names.consumerGroup(logQueue, group);
    }
}
