package io.mikyu.kafka.faults;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A copy acquired before its share partition's leader moved is not handed out after another process took and
 * acknowledged the record from the new leader. The other process is a plain Kafka share consumer of the queue's
 * share group: nothing of this JVM's store handles sees its acknowledgements, as nothing of one process sees
 * another's.
 *
 * <p>A handle's member acquires up to 64 records per share fetch, so a dequeue of one task leaves the handle holding
 * the others unhanded (strays). The leader of the queue's topic is then shut down: the new leader starts from the
 * persisted share state, which does not hold acquisitions, and delivers them again.
 */
@Tag("kafka")
@Tag("faults")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaStaleCopyTest {

    /** Long enough that no lock ends during the test: the leader's move is what voids the handle's acquisitions. */
    private static final Duration LOCK = Duration.ofSeconds(60);
    private static final int TASKS = 10;
    private static final Duration WAIT = Duration.ofMinutes(2);

    @Test
    void aCopyAcquiredBeforeTheLeaderMovedIsNotHandedOutAfterAnotherProcessAckedIt() throws Exception {
        KafkaClusterTestKit kit = KafkaTestCluster.get();
        String uri = KafkaTestCluster.uri();
        String prefix = prefixOf(uri);
        try (Mikyu handle = Mikyu.dial(uri)) {
            TaskQueue jobs = handle.createTaskQueue("stale", TaskQueueConfig.defaults().withDefaultLease(LOCK));
            for (int i = 0; i < TASKS; i++) {
                jobs.enqueue(Task.of("t" + i));
            }
            List<LeasedTask> first = jobs.dequeue(1, LOCK, Duration.ofSeconds(30), null);
            assertThat(first).as("the handle's first dequeue").hasSize(1);

            try (KafkaShareConsumer<byte[], byte[]> other = otherProcess(kit, prefix + ".tasks.stale")) {
                other.subscribe(List.of(prefix + ".task.stale"));
                // The premise: the handle holds the other tasks (its member acquired them with the first one).
                assertThat(acceptAll(other, 1, Duration.ofSeconds(3))).as("what the other process gets while the"
                        + " handle's acquisitions stand").isEmpty();

                int leader = leaderOf(kit, prefix + ".task.stale");
                kit.brokers().get(leader).shutdown();
                Set<String> acceptedElsewhere;
                try {
                    acceptedElsewhere = acceptAll(other, TASKS, WAIT);
                } finally {
                    kit.brokers().get(leader).startup();
                    kit.waitForReadyBrokers();
                }
                acceptedElsewhere.remove(first.get(0).payloadAsString());
                assertThat(acceptedElsewhere).as("tasks the new leader delivered again to the other process, which"
                        + " acknowledged them").isNotEmpty();

                List<String> handedOut = new ArrayList<>();
                for (LeasedTask t : jobs.dequeue(TASKS, LOCK, Duration.ofSeconds(2), null)) {
                    handedOut.add(t.payloadAsString());
                }
                assertThat(handedOut).as("handed out by the handle after the other process's acks returned")
                        .doesNotContainAnyElementsOf(acceptedElsewhere);
            }
        }
    }

    /** A plain Kafka share consumer of the queue's group, acknowledging explicitly, as another process runs it. */
    private static KafkaShareConsumer<byte[], byte[]> otherProcess(KafkaClusterTestKit kit, String group) {
        return new KafkaShareConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kit.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, "explicit",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()));
    }

    /**
     * Polls until it has accepted {@code enough} records or {@code within} has passed, each poll's records accepted
     * and the leader's answer waited for; the payloads accepted.
     */
    private static Set<String> acceptAll(KafkaShareConsumer<byte[], byte[]> consumer, int enough, Duration within) {
        long giveUpAt = System.nanoTime() + within.toNanos();
        Set<String> accepted = new HashSet<>();
        while (accepted.size() < enough && System.nanoTime() - giveUpAt < 0) {
            List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
            try {
                consumer.poll(Duration.ofMillis(500)).forEach(got::add);
            } catch (KafkaException duringTheMove) {
                continue;
            }
            for (ConsumerRecord<byte[], byte[]> r : got) {
                consumer.acknowledge(r, AcknowledgeType.ACCEPT);
            }
            if (got.isEmpty()) {
                continue;
            }
            Map<TopicIdPartition, Optional<KafkaException>> results = consumer.commitSync(Duration.ofSeconds(30));
            assertThat(results).as("the other process's accepts answered").isNotEmpty();
            results.values().forEach(e -> assertThat(e).as("the other process's accepts taken").isEmpty());
            got.forEach(r -> accepted.add(new String(r.value(), StandardCharsets.UTF_8)));
        }
        return accepted;
    }

    private static String prefixOf(String uri) {
        Matcher m = Pattern.compile("[?&]prefix=([^&]+)").matcher(uri);
        assertThat(m.find()).as("a prefix in " + uri).isTrue();
        return m.group(1);
    }

    private static int leaderOf(KafkaClusterTestKit kit, String topic) throws Exception {
        try (Admin admin = kit.admin()) {
            return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic)
                    .partitions().get(0).leader().id();
        }
    }
}
