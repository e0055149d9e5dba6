package io.mikyu.kafka.admin;

import io.mikyu.engine.MikyuException;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.StoreClosedException;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The clients of one Kafka cluster that every queue of a store shares: an admin client, one idempotent producer
 * ({@code acks=all}: a returned append is on {@code min.insync.replicas} brokers), and the settings new consumers
 * get. Kafka's checked failures become mikyu's exceptions here.
 */
public final class Cluster implements AutoCloseable {

    /** How long one admin or produce call may take before it is reported as failed. */
    public static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    private final String bootstrapServers;
    private final String clientName;
    private final Map<String, String> clientSettings;
    private final short replicationFactor;
    private final Admin admin;
    private final Producer<byte[], byte[]> producer;
    private final AtomicInteger clients = new AtomicInteger();
    /**
     * Topics this client created or deleted lately, with when: each broker's metadata catches up on its own, and a
     * listing answered by a broker that has not yet seen the change must not undo it for the client that made it.
     */
    private final Map<String, Long> recentlyCreated = new ConcurrentHashMap<>();
    private final Map<String, Long> recentlyDeleted = new ConcurrentHashMap<>();
    private volatile String id;
    /** How long a change of this client's counts over what the brokers list: longer than metadata takes to spread. */
    private static final long READ_YOUR_WRITES_NANOS = TimeUnit.SECONDS.toNanos(60);

    public Cluster(String bootstrapServers, String clientName, Map<String, String> clientSettings,
                   short replicationFactor) {
        this.bootstrapServers = bootstrapServers;
        this.clientName = clientName;
        this.clientSettings = clientSettings;
        this.replicationFactor = replicationFactor;
        this.admin = Admin.create(common("admin"));
        this.producer = new KafkaProducer<>(producerSettings("producer"), new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    /** Settings of a new idempotent producer ({@code acks=all}), {@code role} naming it in its {@code client.id}. */
    public Map<String, Object> producerSettings(String role) {
        Map<String, Object> props = common(role);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        props.putAll(clientSettings);
        return props;
    }

    /** The cluster's id, asked once (it is the first call of a store handle, which checks the cluster answers). */
    public String id() {
        String known = id;
        if (known == null) {
            known = await(admin.describeCluster().clusterId(), "reach the Kafka cluster at " + bootstrapServers);
            id = known;
        }
        return known;
    }

    /** The prefix of this store's clients' {@code client.id}. */
    public String clientName() {
        return clientName;
    }

    public Admin admin() {
        return admin;
    }

    public Producer<byte[], byte[]> producer() {
        return producer;
    }

    /** Settings of a new consumer or share consumer, {@code role} naming it in its {@code client.id}. */
    public Map<String, Object> consumerSettings(String role) {
        Map<String, Object> props = common(role);
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        props.putAll(clientSettings);
        return props;
    }

    private Map<String, Object> common(String role) {
        Map<String, Object> props = new HashMap<>();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientName + "-" + role + "-" + clients.incrementAndGet());
        props.putAll(clientSettings);
        return props;
    }

    /** Creates a one-partition topic (one partition: a queue's offsets are one sequence). */
    public void createTopic(String topic, String queue, Map<String, String> configs) {
        NewTopic newTopic = new NewTopic(topic, Optional.of(1), replicationFactor == -1
                ? Optional.empty() : Optional.of(replicationFactor)).configs(configs);
        try {
            await(admin.createTopics(List.of(newTopic)).all(), "create queue '" + queue + "'");
            recentlyDeleted.remove(topic);
            recentlyCreated.put(topic, System.nanoTime());
            awaitListed(topic, true);
        } catch (KafkaCallException e) {
            if (e.getCause() instanceof TopicExistsException) {
                throw new QueueExistsException("queue '" + queue + "' exists (topic " + topic + ")");
            }
            throw e;
        }
    }

    /**
     * Waits until the broker this client asks lists the topic (or no longer does): the controller answers a create
     * or delete before every broker's metadata shows it, and a queue must be listed once its creation returned.
     */
    private void awaitListed(String topic, boolean listed) {
        long giveUpAt = System.nanoTime() + CALL_TIMEOUT.toNanos();
        while (listedTopics().contains(topic) != listed) {
            if (System.nanoTime() - giveUpAt >= 0) {
                throw new MikyuException("topic " + topic + " was " + (listed ? "created" : "deleted")
                        + " but the cluster's metadata did not show it within " + CALL_TIMEOUT.toSeconds() + " s");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MikyuException("interrupted while waiting for topic " + topic, e);
            }
        }
    }

    /** Whether the topic exists, as the broker asked lists it (what this client changed lately counts first). */
    public boolean topicExists(String topic) {
        return topics().contains(topic);
    }

    /** The names of the topics, internal ones left out, with what this client created or deleted lately. */
    public List<String> topics() {
        java.util.Set<String> names = new java.util.TreeSet<>(listedTopics());
        long now = System.nanoTime();
        recentlyCreated.entrySet().removeIf(e -> now - e.getValue() > READ_YOUR_WRITES_NANOS);
        recentlyDeleted.entrySet().removeIf(e -> now - e.getValue() > READ_YOUR_WRITES_NANOS);
        names.addAll(recentlyCreated.keySet());
        names.removeAll(recentlyDeleted.keySet());
        return new ArrayList<>(names);
    }

    private java.util.Set<String> listedTopics() {
        return await(admin.listTopics().names(), "list topics");
    }

    /** Deletes the topic; {@code false} if there was none. */
    public boolean deleteTopic(String topic) {
        try {
            await(admin.deleteTopics(List.of(topic)).all(), "delete topic " + topic);
            recentlyCreated.remove(topic);
            recentlyDeleted.put(topic, System.nanoTime());
            awaitListed(topic, false);
            return true;
        } catch (KafkaCallException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false;
            }
            throw e;
        }
    }

    /** The topic's configuration, defaults included; {@link QueueNotFoundException} if it does not exist. */
    public Map<String, String> topicConfig(String topic, String queue) {
        return config(new ConfigResource(ConfigResource.Type.TOPIC, topic), queue);
    }

    /** A group's configuration (share groups keep lock duration and delivery limit there). */
    public Map<String, String> groupConfig(String group) {
        return config(new ConfigResource(ConfigResource.Type.GROUP, group), group);
    }

    /** Sets the configuration of group {@code group}. */
    public void setGroupConfig(String group, Map<String, String> configs) {
        List<AlterConfigOp> ops = new ArrayList<>();
        configs.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
        await(admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, group), ops)).all(),
                "configure group " + group);
    }

    private Map<String, String> config(ConfigResource resource, String what) {
        try {
            Map<String, String> out = new HashMap<>();
            for (ConfigEntry entry : await(admin.describeConfigs(List.of(resource)).all(), "describe " + what)
                    .get(resource).entries()) {
                if (entry.value() != null) {
                    out.put(entry.name(), entry.value());
                }
            }
            return out;
        } catch (KafkaCallException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new QueueNotFoundException("no queue '" + what + "'");
            }
            throw e;
        }
    }

    /** The first offset still stored in the topic's partition. */
    public long startOffset(String topic) {
        return offset(topic, OffsetSpec.earliest());
    }

    /** The offset the next record of the topic will get. */
    public long endOffset(String topic) {
        return offset(topic, OffsetSpec.latest());
    }

    /** The first offset with a timestamp at or after {@code millis}, or -1 if none. */
    public long offsetForTimestamp(String topic, long millis) {
        return offset(topic, OffsetSpec.forTimestamp(millis));
    }

    private long offset(String topic, OffsetSpec spec) {
        TopicPartition tp = new TopicPartition(topic, 0);
        try {
            return await(admin.listOffsets(Map.of(tp, spec)).partitionResult(tp), "offsets of " + topic).offset();
        } catch (KafkaCallException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new QueueNotFoundException("no topic " + topic);
            }
            throw e;
        }
    }

    /** Whether a call failed because a group does not exist. */
    public static boolean isUnknownGroup(Throwable e) {
        return e instanceof GroupIdNotFoundException
                || (e != null && e.getCause() instanceof GroupIdNotFoundException);
    }

    /** Waits for a Kafka call, turning its failures into mikyu's. */
    public static <T> T await(KafkaFuture<T> future, String what) {
        try {
            return future.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MikyuException("interrupted while waiting to " + what, e);
        } catch (ExecutionException e) {
            throw new KafkaCallException("could not " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new MikyuException("no answer from the Kafka cluster within " + CALL_TIMEOUT.toSeconds()
                    + " s to " + what, e);
        }
    }

    /** Waits for a produce call. */
    public static <T> T await(java.util.concurrent.Future<T> future, String what) {
        try {
            return future.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MikyuException("interrupted while waiting to " + what, e);
        } catch (ExecutionException e) {
            throw new KafkaCallException("could not " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new MikyuException("no answer from the Kafka cluster within " + CALL_TIMEOUT.toSeconds()
                    + " s to " + what, e);
        }
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        try {
            producer.close(Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            admin.close(Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            failure = failure == null ? e : failure;
        }
        if (failure != null) {
            throw new StoreClosedException("closing the Kafka clients failed", failure);
        }
    }
}
