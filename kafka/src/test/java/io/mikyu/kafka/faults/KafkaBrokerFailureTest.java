package io.mikyu.kafka.faults;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Kafka broker fails under load: 4 consumers (each its own store handle) take tasks from one queue while a
 * producer enqueues; the leader of the queue's topic is shut down mid-run and started again, then the controller.
 * Every enqueue that returned is delivered at least once; nothing whose ack returned is delivered again; a task
 * comes more than once only after a delivery whose ack failed; its delivery count never goes down; a consumer
 * group's committed offset survives.
 *
 * <p>Minutes long, so in the module's fault campaign ({@code -Pfaults}), not in the {@code kafka} profile CI runs:
 * {@link #oneBrokerAndTheControllerRestartUnderLoad()} is one cycle with the controller too,
 * {@link #brokerRestartCampaign()} {@code mikyu.faults.cycles} cycles, a broker each.
 */
@Tag("kafka")
@Tag("faults")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaBrokerFailureTest {

    private static final int CONSUMERS = 4;
    private static final Duration LOCK = Duration.ofSeconds(5);
    private static final Duration DEADLINE = Duration.ofMinutes(4);

    /** One delivery as a consumer saw it. */
    private record Receipt(String payload, long id, int attempt, long receivedNanos, long ackedNanos, boolean acked) {
    }

    @Test
    void oneBrokerAndTheControllerRestartUnderLoad() throws Exception {
        runCycle(300, true);
    }

    @Test
    void brokerRestartCampaign() throws Exception {
        int cycles = Integer.getInteger("mikyu.faults.cycles", 3);
        for (int c = 0; c < cycles; c++) {
            runCycle(200, false);
        }
    }

    /** Delayed tasks wait in a delay tier while its leader broker is shut down and started again. */
    @Test
    void delayedTasksAreNeverEarlyAcrossABrokerRestart() throws Exception {
        KafkaClusterTestKit kit = KafkaTestCluster.get();
        String uri = KafkaTestCluster.uri();
        try (Mikyu mikyu = Mikyu.dial(uri)) {
            TaskQueue work = mikyu.createTaskQueue("work", TaskQueueConfig.defaults().withDefaultLease(LOCK));
            Map<String, Long> due = new ConcurrentHashMap<>();
            for (int i = 0; i < 20; i++) {
                Task t = Task.of("d" + i).withDelay(Duration.ofSeconds(5 + i % 10));
                work.enqueue(t);
                due.put("d" + i, t.deliverAt());
            }
            // Tier 1 (4 s) holds them first: restart its leader while they wait there.
            int leader = leaderOf(kit, prefixOf(uri) + ".delay.1");
            kit.brokers().get(leader).shutdown();
            kit.brokers().get(leader).startup();
            kit.waitForReadyBrokers();
            Map<String, Long> receivedAt = new ConcurrentHashMap<>();
            long giveUpAt = System.nanoTime() + DEADLINE.toNanos();
            while (receivedAt.size() < due.size() && System.nanoTime() - giveUpAt < 0) {
                for (LeasedTask t : work.dequeue(10, LOCK, Duration.ofSeconds(1), null)) {
                    receivedAt.putIfAbsent(t.payloadAsString(), System.currentTimeMillis());
                    try {
                        work.ack(t.token());
                    } catch (StaleLeaseException leaseEndedInTheFailover) {
                        // Kafka refused the ack ("the record state is invalid" after the leader's restart): the
                        // task comes again, flagged; what this test checks is when each is first delivered.
                    }
                }
            }
            assertThat(receivedAt.keySet()).as("every delayed task delivered").isEqualTo(due.keySet());
            receivedAt.forEach((payload, at) ->
                    assertThat(at).as(payload + " not before its time").isGreaterThanOrEqualTo(due.get(payload)));
        }
    }

    private void runCycle(int tasks, boolean alsoTheController) throws Exception {
        KafkaClusterTestKit kit = KafkaTestCluster.get();
        String uri = KafkaTestCluster.uri();
        Queue<Receipt> receipts = new ConcurrentLinkedQueue<>();
        Set<String> sent = ConcurrentHashMap.newKeySet();
        AtomicInteger produced = new AtomicInteger();
        List<Mikyu> handles = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        volatileStop = false;
        try (Mikyu admin = Mikyu.dial(uri)) {
            TaskQueue work = admin.createTaskQueue("work", TaskQueueConfig.defaults().withMaxAttempts(15)
                    .withDefaultLease(LOCK));
            LogQueue audit = admin.createLog("audit");
            for (int i = 0; i < 5; i++) {
                audit.append(Entry.of("a" + i));
            }
            audit.group("billing").commit(3);

            for (int c = 0; c < CONSUMERS; c++) {
                Mikyu handle = Mikyu.dial(uri);
                handles.add(handle);
                threads.add(start("consumer-" + c, () -> consume(handle.taskQueue("work"), receipts)));
            }
            threads.add(start("producer", () -> {
                for (int i = 0; i < tasks && !volatileStop; i++) {
                    String payload = "t" + i;
                    try {
                        work.enqueue(Task.of(payload));
                        sent.add(payload);
                    } catch (RuntimeException e) {
                        // Not returned: it may or may not be there; nothing is promised for it.
                    }
                    produced.incrementAndGet();
                }
            }));

            awaitTrue(() -> produced.get() >= tasks / 3, "a third of the tasks enqueued");
            int leader = leaderOf(kit, prefixOf(uri) + ".task.work");
            kit.brokers().get(leader).shutdown();
            awaitTrue(() -> produced.get() >= 2 * tasks / 3, "two thirds enqueued with broker " + leader + " down");
            kit.brokers().get(leader).startup();
            kit.waitForReadyBrokers();
            if (alsoTheController) {
                int controller = kit.controllers().keySet().iterator().next();
                kit.controllers().get(controller).shutdown();
                kit.controllers().get(controller).startup();
                kit.waitForReadyBrokers();
            }
            awaitTrue(() -> produced.get() >= tasks, "every task enqueued");
            awaitTrue(() -> receivedPayloads(receipts).containsAll(sent), "every returned enqueue delivered");
            // Watch two lock durations more: a lost ack would bring its task again within one.
            long quietUntil = System.nanoTime() + 2 * LOCK.toNanos() + TimeUnit.SECONDS.toNanos(2);
            awaitTrue(() -> System.nanoTime() - quietUntil >= 0, "the watch after the last delivery");

            assertThat(audit.group("billing").position()).as("the consumer group's offset").isEqualTo(3);
        } finally {
            volatileStop = true;
            for (Thread t : threads) {
                t.join(DEADLINE.toMillis());
            }
            handles.forEach(Mikyu::close);
        }
        check(receipts, sent);
    }

    private volatile boolean volatileStop;

    private void consume(TaskQueue queue, Queue<Receipt> receipts) {
        while (!volatileStop) {
            List<LeasedTask> got;
            try {
                got = queue.dequeue(10, LOCK, Duration.ofSeconds(1), null);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                continue; // a fetch during the failover: try again
            }
            // Delivered when the dequeue returned, not when this loop reaches the task: in a failover each ack
            // before it may take seconds, and another consumer may get and ack a task whose lease the leader's move
            // ended meanwhile (this consumer's ack of it then fails).
            long received = System.nanoTime();
            for (LeasedTask t : got) {
                boolean acked;
                try {
                    queue.ack(t.token());
                    acked = true;
                } catch (RuntimeException e) {
                    acked = false;
                }
                receipts.add(new Receipt(t.payloadAsString(), t.id(), t.attempt(), received, System.nanoTime(),
                        acked));
            }
        }
    }

    private static void check(Queue<Receipt> receipts, Set<String> sent) {
        Map<String, List<Receipt>> byPayload = receipts.stream().collect(Collectors.groupingBy(Receipt::payload));
        assertThat(byPayload.keySet()).as("every enqueue that returned is delivered").containsAll(sent);
        for (Map.Entry<String, List<Receipt>> e : byPayload.entrySet()) {
            List<Receipt> seen = new ArrayList<>(e.getValue());
            seen.sort(Comparator.comparingLong(Receipt::receivedNanos));
            for (int i = 1; i < seen.size(); i++) {
                Receipt again = seen.get(i);
                // Nothing acknowledged is delivered again: no delivery after an ack of the message returned. A copy
                // handed out while an ack was still on its way (seconds, in a failover) is a duplicate of a message
                // not yet acknowledged, which at-least-once allows; it must show a higher count.
                for (Receipt before : seen.subList(0, i)) {
                    assertThat(before.acked() && before.ackedNanos() <= again.receivedNanos())
                            .as(e.getKey() + " delivered again after its ack returned; its deliveries: "
                                    + describe(seen)).isFalse();
                }
                Receipt before = seen.get(i - 1);
                // Kafka can lose a count in a failover; the handles of one JVM show it raised all the same.
                assertThat(again.attempt()).as(e.getKey() + "'s delivery count after delivery " + before.attempt())
                        .isGreaterThan(before.attempt());
            }
        }
        long duplicates = byPayload.values().stream().filter(l -> l.size() > 1).count();
        System.out.println("broker failure: " + sent.size() + " enqueued, " + byPayload.size() + " delivered, "
                + duplicates + " delivered more than once (each while no ack of it had returned)");
    }

    /** Each delivery's task id and attempt, when it was received and when its ack ended (ms after the first). */
    private static String describe(List<Receipt> seen) {
        long first = seen.get(0).receivedNanos();
        return seen.stream().map(r -> "id " + r.id() + " attempt " + r.attempt() + " received at "
                + TimeUnit.NANOSECONDS.toMillis(r.receivedNanos() - first) + " ms, ack "
                + (r.acked() ? "returned" : "failed") + " at " + TimeUnit.NANOSECONDS.toMillis(r.ackedNanos() - first)
                + " ms").collect(Collectors.joining("; "));
    }

    private static String prefixOf(String uri) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[?&]prefix=([^&]+)").matcher(uri);
        assertThat(m.find()).as("a prefix in " + uri).isTrue();
        return m.group(1);
    }

    private static int leaderOf(KafkaClusterTestKit kit, String topic) throws Exception {
        try (Admin admin = kit.admin()) {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return d.partitions().get(0).leader().id();
        }
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what)
            throws InterruptedException {
        long giveUpAt = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - giveUpAt).as("within " + DEADLINE + ": " + what).isNegative();
            Thread.sleep(50);
        }
    }

    private static Set<String> receivedPayloads(Queue<Receipt> receipts) {
        return receipts.stream().map(Receipt::payload).collect(Collectors.toSet());
    }
}
