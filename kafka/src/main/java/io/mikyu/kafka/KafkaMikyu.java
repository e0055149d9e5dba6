package io.mikyu.kafka;

import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineStats;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.PreparedTransaction;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.Secrets;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Transaction;
import io.mikyu.kafka.admin.Cluster;
import io.mikyu.kafka.admin.KafkaCallException;
import io.mikyu.kafka.admin.TopicNames;
import io.mikyu.kafka.admin.TopicSettings;
import io.mikyu.kafka.claim.LocalClaims;
import io.mikyu.kafka.delay.DelayedTasks;
import io.mikyu.kafka.log.KafkaLogQueue;
import io.mikyu.kafka.priority.BandsSeen;
import io.mikyu.kafka.task.HighBand;
import io.mikyu.kafka.task.KafkaTaskQueue;
import io.mikyu.kafka.txn.KafkaTransaction;
import io.mikyu.kafka.txn.QueueTargets;
import io.mikyu.kafka.txn.TransactionalProducers;

import org.apache.kafka.common.Uuid;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link Mikyu} interface on a Kafka cluster: log queues are topics, consumer groups Kafka consumer groups, task
 * queues a topic and a share group each (docs/kafka.md has the whole mapping and what is not available).
 *
 * <p>Queue handles are kept per name and closed with the store. Other clients of the cluster see the same queues:
 * the cluster, not this handle, is the store.
 */
public final class KafkaMikyu implements Mikyu {

    private static final String NO_XA = "XA is not available on the Kafka backend: a Kafka transaction cannot be"
            + " prepared for an outside transaction manager and decided later (docs/kafka.md)";

    private final String location;
    private final KafkaOptions options;
    private final Cluster cluster;
    private final TopicNames names;
    private final LocalClaims claims = new LocalClaims();
    private final Map<String, KafkaLogQueue> logs = new ConcurrentHashMap<>();
    private final Map<String, KafkaTaskQueue> tasks = new ConcurrentHashMap<>();
    private final TransactionalProducers transactionalProducers;
    private final DelayedTasks delays;
    private volatile boolean open = true;

    private KafkaMikyu(String location, KafkaOptions options, Cluster cluster) {
        this.location = location;
        this.options = options;
        this.cluster = cluster;
        this.names = new TopicNames(options.topicPrefix());
        this.transactionalProducers = new TransactionalProducers(cluster, options.topicPrefix());
        this.delays = new DelayedTasks(cluster, names);
    }

    /** Connects to the cluster and checks it answers. */
    static KafkaMikyu connect(String uri, KafkaOptions options) {
        Cluster cluster = new Cluster(options.bootstrapServers(), options.clientName(), options.clientSettings(),
                options.replicationFactor());
        try {
            cluster.id();
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return new KafkaMikyu(Secrets.redact(uri), options, cluster);
    }

    // ---- log queues

    @Override
    public LogQueue createLog(String name, LogQueueConfig config) {
        ensureOpen();
        TopicNames.checkNew("log queue", name);
        String topic = names.topic(QueueKind.LOG, name);
        cluster.createTopic(topic, name, TopicSettings.logTopic(config));
        return logHandle(name, topic, config);
    }

    private KafkaLogQueue logHandle(String name, String topic, LogQueueConfig config) {
        return logs.computeIfAbsent(name, n -> new KafkaLogQueue(n, topic, config, cluster, names,
                options.deliveryLimit(), this::deadLetterQueue));
    }

    /** The dead-letter task queue {@code name} (of a shared group: {@code <log>:<group>/dlq}), made if needed. */
    private TaskQueue deadLetterQueue(String name) {
        KafkaTaskQueue known = tasks.get(name);
        if (known != null) {
            return known;
        }
        TaskQueueConfig config = TaskQueueConfig.defaults().withDurability(Durability.SYNC)
                .withMaxAttempts(TaskQueueConfig.UNLIMITED_ATTEMPTS);
        createTaskTopic(name, config, true);
        return taskHandle(name, names.topic(QueueKind.TASK, name), config);
    }

    @Override
    public LogQueue createLog(String name) {
        return createLog(name, LogQueueConfig.defaults().withDurability(Durability.SYNC));
    }

    @Override
    public LogQueue getOrCreateLog(String name, LogQueueConfig config) {
        ensureOpen();
        KafkaLogQueue known = logs.get(name);
        if (known != null) {
            return known;
        }
        try {
            return createLog(name, config);
        } catch (QueueExistsException e) {
            return log(name);
        }
    }

    @Override
    public LogQueue log(String name) {
        ensureOpen();
        KafkaLogQueue known = logs.get(name);
        if (known != null) {
            return known;
        }
        String topic = names.topic(QueueKind.LOG, name);
        if (!cluster.topicExists(topic)) {
            throw new QueueNotFoundException("no log queue '" + name + "'");
        }
        LogQueueConfig config = TopicSettings.logConfig(cluster.topicConfig(topic, name), Durability.SYNC);
        return logHandle(name, topic, config);
    }

    @Override
    public boolean deleteLog(String name) {
        ensureOpen();
        KafkaLogQueue handle = logs.remove(name);
        if (handle != null) {
            handle.close();
        }
        String topic = names.topic(QueueKind.LOG, name);
        // The controller's answer, not a broker's metadata (which may still list a topic being deleted).
        if (!cluster.deleteTopic(topic)) {
            return false;
        }
        KafkaLogQueue groupsOf = new KafkaLogQueue(name, topic, LogQueueConfig.defaults(), cluster, names);
        try {
            for (String g : groupsOf.groups()) {
                groupsOf.deleteGroup(g);
            }
        } finally {
            groupsOf.close();
        }
        return true;
    }

    // ---- task queues

    @Override
    public TaskQueue createTaskQueue(String name, TaskQueueConfig config) {
        ensureOpen();
        TopicNames.checkNew("task queue", name);
        String topic = names.newTaskQueueTopic(name);
        String dlqName = name + TaskQueue.DEAD_LETTER_SUFFIX;
        TaskQueueConfig dlqConfig = config.withMaxAttempts(TaskQueueConfig.UNLIMITED_ATTEMPTS);
        // The dead-letter queue first: a queue is complete once its own topic exists.
        createTaskTopic(dlqName, dlqConfig, true);
        createTaskTopic(name, config, false);
        return taskHandle(name, topic, config);
    }

    private void createTaskTopic(String name, TaskQueueConfig config, boolean mayExist) {
        String topic = names.topic(QueueKind.TASK, name);
        try {
            cluster.createTopic(topic, name, TopicSettings.taskTopic(config));
        } catch (QueueExistsException e) {
            if (!mayExist) {
                throw e;
            }
        }
        cluster.setGroupConfig(names.taskShareGroup(name), TopicSettings.taskShareGroup(config,
                options.deliveryLimit()));
    }

    private KafkaTaskQueue taskHandle(String name, String topic, TaskQueueConfig config) {
        return tasks.computeIfAbsent(name, n -> new KafkaTaskQueue(n, config, cluster, bandLog(n, topic),
                names.taskShareGroup(n), highBand(n, config), dlq -> (KafkaTaskQueue) taskQueue(dlq), delays));
    }

    private KafkaLogQueue bandLog(String name, String topic) {
        return new KafkaLogQueue(name, topic, LogQueueConfig.defaults().withDurability(Durability.SYNC), cluster, names);
    }

    /**
     * Task queue {@code name}'s high priority band (io.mikyu.kafka.priority.PriorityBands), made on its first task
     * of priority 5 or more rather than with the queue: most queues never see one, and a band made with each queue
     * would double the cluster's topics and share groups and add a poll of an empty band to every dequeue.
     */
    private HighBand highBand(String name, TaskQueueConfig config) {
        String topic = names.highBandTopic(name);
        String group = names.highBandShareGroup(name);
        return new HighBand() {
            @Override
            public String group() {
                return group;
            }

            @Override
            public boolean exists() {
                boolean exists = cluster.topicExists(topic);
                if (exists) {
                    BandsSeen.seen(cluster.id(), topic);
                }
                return exists;
            }

            @Override
            public boolean seenInThisJvm() {
                return BandsSeen.contains(cluster.id(), topic);
            }

            @Override
            public void create() {
                try {
                    cluster.createTopic(topic, name, TopicSettings.taskTopic(config));
                } catch (QueueExistsException e) {
                    // Made by another client meanwhile.
                }
                cluster.setGroupConfig(group, TopicSettings.taskShareGroup(config, options.deliveryLimit()));
                BandsSeen.seen(cluster.id(), topic);
            }

            @Override
            public KafkaLogQueue open() {
                return bandLog(name, topic);
            }
        };
    }

    @Override
    public TaskQueue createTaskQueue(String name) {
        return createTaskQueue(name, TaskQueueConfig.defaults().withDurability(Durability.SYNC));
    }

    @Override
    public TaskQueue getOrCreateTaskQueue(String name, TaskQueueConfig config) {
        ensureOpen();
        KafkaTaskQueue known = tasks.get(name);
        if (known != null) {
            return known;
        }
        try {
            return createTaskQueue(name, config);
        } catch (QueueExistsException e) {
            return taskQueue(name);
        }
    }

    @Override
    public TaskQueue taskQueue(String name) {
        ensureOpen();
        KafkaTaskQueue known = tasks.get(name);
        if (known != null) {
            return known;
        }
        String topic = names.topic(QueueKind.TASK, name);
        if (!cluster.topicExists(topic)) {
            throw new QueueNotFoundException("no task queue '" + name + "'");
        }
        TaskQueueConfig config = TopicSettings.taskConfig(cluster.groupConfig(names.taskShareGroup(name)),
                options.deliveryLimit());
        return taskHandle(name, topic, config);
    }

    @Override
    public boolean deleteTaskQueue(String name) {
        ensureOpen();
        boolean existed = false;
        for (String queue : List.of(name, name + TaskQueue.DEAD_LETTER_SUFFIX)) {
            KafkaTaskQueue handle = tasks.remove(queue);
            if (handle != null) {
                handle.close();
            }
            // The high priority band first: a queue is gone once its own topic is.
            for (String group : List.of(names.highBandShareGroup(queue), names.taskShareGroup(queue))) {
                try {
                    Cluster.await(cluster.admin().deleteShareGroups(List.of(group)).all(),
                            "delete the share group of '" + queue + "'");
                } catch (KafkaCallException e) {
                    if (!Cluster.isUnknownGroup(e)) {
                        throw e;
                    }
                }
            }
            BandsSeen.deleted(cluster.id(), names.highBandTopic(queue));
            cluster.deleteTopic(names.highBandTopic(queue));
            boolean deleted = cluster.deleteTopic(names.topic(QueueKind.TASK, queue));
            existed |= deleted && queue.equals(name);
        }
        return existed;
    }

    @Override
    public List<String> list(QueueKind kind) {
        ensureOpen();
        TreeSet<String> out = new TreeSet<>();
        for (String topic : cluster.topics()) {
            String name = names.queueName(kind, topic);
            if (name != null) {
                out.add(name);
            }
        }
        return new ArrayList<>(out);
    }

    // ---- claims

    @Override
    public Claim claim(String name, ClaimMode mode) {
        ensureOpen();
        return claims.claim(name, mode);
    }

    @Override
    public int claimHolders(String name) {
        return claims.holders(name);
    }

    @Override
    public boolean deleteGroupUnlessClaimed(String log, String group, String claim) {
        synchronized (claims) {
            if (claims.holders(claim) > 0) {
                log(log);
                return false;
            }
            return log(log).deleteGroup(group);
        }
    }

    // ---- transactions

    /** Sends and offsets in one Kafka transaction, acks and nacks held until it is committed ({@link KafkaTransaction}). */
    @Override
    public Transaction beginTransaction() {
        ensureOpen();
        return new KafkaTransaction(new QueueTargets(n -> (KafkaLogQueue) log(n), n -> (KafkaTaskQueue) taskQueue(n),
                names), transactionalProducers, cluster);
    }

    @Override
    public List<byte[]> preparedTransactions() {
        throw new UnsupportedOperationException(NO_XA);
    }

    @Override
    public List<PreparedTransaction> inDoubtTransactions() {
        throw new UnsupportedOperationException(NO_XA);
    }

    @Override
    public void commitPrepared(byte[] xid) {
        throw new UnsupportedOperationException(NO_XA);
    }

    @Override
    public void rollbackPrepared(byte[] xid) {
        throw new UnsupportedOperationException(NO_XA);
    }

    // ---- the store

    /** The Kafka cluster's id (as a UUID's canonical text, as every store's id is): the same for all its clients. */
    @Override
    public String storeId() {
        ensureOpen();
        Uuid id = Uuid.fromString(cluster.id());
        return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits()).toString();
    }

    @Override
    public EngineStats stats() {
        return new EngineStats(location, list(QueueKind.LOG).size(), list(QueueKind.TASK).size(), 0, 0, 0, 0, 0, 0,
                0, 0, -1);
    }

    /** Nothing to recover on the client's side: the brokers recover their logs. */
    @Override
    public RecoveryReport recoveryReport() {
        return new RecoveryReport(List.of(), 0);
    }

    @Override
    public String location() {
        return location;
    }

    /** Waits for every append sent so far to be acknowledged by the cluster. */
    @Override
    public void flush() {
        ensureOpen();
        cluster.producer().flush();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public synchronized void close() {
        if (!open) {
            return;
        }
        open = false;
        tasks.values().forEach(KafkaTaskQueue::close);
        tasks.clear();
        logs.values().forEach(KafkaLogQueue::close);
        logs.clear();
        transactionalProducers.close();
        delays.close();
        cluster.close();
    }

    private void ensureOpen() {
        if (!open) {
            throw new StoreClosedException("the Kafka store " + location + " is closed");
        }
    }
}
