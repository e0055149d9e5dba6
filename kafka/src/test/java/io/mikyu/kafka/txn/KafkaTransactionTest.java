package io.mikyu.kafka.txn;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.Record;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Transaction;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Transactions on the in-JVM cluster: sends and consumer-group offsets in one Kafka transaction, acks and nacks
 * applied after its commit, nothing visible of a rolled-back or failed one.
 */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaTransactionTest {

    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final Duration LEASE = Duration.ofSeconds(30);

    private static TaskQueueConfig config() {
        return TaskQueueConfig.defaults().withMaxAttempts(5).withDefaultLease(LEASE);
    }

    @Test
    void aCommitShowsItsSendsItsOffsetAndItsAckTogether() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue orders = mikyu.createLog("orders");
            TaskQueue jobs = mikyu.createTaskQueue("jobs", config());
            TaskQueue shipping = mikyu.createTaskQueue("shipping", config());
            orders.append(Entry.of("placed"));
            jobs.enqueue(Task.of("bill order 0"));
            LeasedTask job = dequeueOne(jobs);

            try (Transaction tx = mikyu.beginTransaction()) {
                tx.append("orders", Entry.of("billed")).enqueue("shipping", Task.of("ship order 0"))
                        .commitOffset("orders", "billing", 1).ack("jobs", job.token());
                assertThat(tx.size()).isEqualTo(4);
                tx.commit();
            }

            assertThat(orders.read(0, 10)).extracting(Record::payloadAsString).containsExactly("placed", "billed");
            assertThat(orders.group("billing").position()).isEqualTo(1);
            assertThat(dequeueOne(shipping).payloadAsString()).isEqualTo("ship order 0");
            assertThatThrownBy(() -> jobs.ack(job.token())).isInstanceOf(StaleLeaseException.class);
            assertThat(jobs.dequeue(1, LEASE, Duration.ofSeconds(3), null)).isEmpty();
        }
    }

    @Test
    void aRollbackWritesNothingAndLeavesTheLeaseToItsHolder() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("events");
            TaskQueue jobs = mikyu.createTaskQueue("jobs", config());
            jobs.enqueue(Task.of("job"));
            LeasedTask job = dequeueOne(jobs);
            long end = events.endOffset();

            try (Transaction tx = mikyu.beginTransaction()) {
                tx.append("events", Entry.of("never")).ack("jobs", job.token()).commitOffset("events", "audit", 0);
                tx.rollback();
            }
            try (Transaction tx = mikyu.beginTransaction()) {
                tx.append("events", Entry.of("never either"));
                // closed without a commit: rolled back
            }

            assertThat(events.endOffset()).isEqualTo(end);
            assertThat(events.read(0, 10)).isEmpty();
            // The lease is still the holder's: its nack gives the task back, its delivery counted.
            jobs.nack(job.token(), Duration.ZERO, "rolled back");
            LeasedTask again = dequeueOne(jobs);
            assertThat(again.id()).isEqualTo(job.id());
            assertThat(again.attempt()).isEqualTo(2);
        }
    }

    @Test
    void aLeaseNoLongerHeldRefusesTheCommitBeforeAnythingIsWritten() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("events");
            TaskQueue jobs = mikyu.createTaskQueue("jobs", config());
            jobs.enqueue(Task.of("job"));
            LeasedTask job = dequeueOne(jobs);
            jobs.ack(job.token());

            try (Transaction tx = mikyu.beginTransaction()) {
                tx.append("events", Entry.of("must not show")).ack("jobs", job.token());
                assertThatThrownBy(tx::commit).isInstanceOf(StaleLeaseException.class);
            }
            assertThat(events.endOffset()).isZero();
        }
    }

    @Test
    void aFailedCommitShowsNoneOfItsSendsAndKeepsTheLeases() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("events");
            TaskQueue jobs = mikyu.createTaskQueue("jobs", config());
            jobs.enqueue(Task.of("job"));
            LeasedTask job = dequeueOne(jobs);

            try (Transaction tx = mikyu.beginTransaction()) {
                // The second record is over the producer's request size: the Kafka transaction is aborted.
                tx.append("events", Entry.of("small")).append("events", Entry.of(new byte[2 * 1024 * 1024]))
                        .ack("jobs", job.token());
                assertThatThrownBy(tx::commit).isInstanceOf(MikyuException.class);
            }

            // read_committed: the aborted records are not read, though they took offsets.
            assertThat(events.read(0, 10)).isEmpty();
            events.append(Entry.of("after"));
            assertThat(events.read(0, 10)).extracting(Record::payloadAsString).containsExactly("after");
            // The ack was not applied: the lease is still held, and the next transaction may use it.
            try (Transaction tx = mikyu.beginTransaction()) {
                tx.ack("jobs", job.token()).append("events", Entry.of("done"));
                tx.commit();
            }
            assertThat(events.read(0, 10)).extracting(Record::payloadAsString).containsExactly("after", "done");
            assertThat(jobs.dequeue(1, LEASE, Duration.ofSeconds(3), null)).isEmpty();
        }
    }

    @Test
    void anAbortedEnqueueIsNeverDelivered() throws Exception {
        String uri = KafkaTestCluster.uri();
        try (Mikyu mikyu = Mikyu.dial(uri)) {
            mikyu.createLog("small");
            TaskQueue jobs = mikyu.createTaskQueue("jobs", config());
            // The brokers refuse records over 1 KB on the log's topic: a transaction appending one is aborted after
            // its enqueue reached the queue's topic.
            String topic = uri.replaceAll(".*[?&]prefix=([^&]+).*", "$1") + ".log.small";
            try (Admin admin = KafkaTestCluster.get().admin()) {
                ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(
                        new ConfigEntry("max.message.bytes", "1024"), AlterConfigOp.OpType.SET)))).all().get();
            }
            try (Transaction tx = mikyu.beginTransaction()) {
                tx.enqueue("jobs", Task.of("aborted")).append("small", Entry.of(new byte[64 * 1024]));
                assertThatThrownBy(tx::commit).isInstanceOf(MikyuException.class);
            }
            jobs.enqueue(Task.of("committed"));
            LeasedTask first = dequeueOne(jobs);
            assertThat(first.payloadAsString()).isEqualTo("committed");
            jobs.ack(first.token());
            assertThat(jobs.dequeue(1, LEASE, Duration.ofSeconds(3), null)).isEmpty();
        }
    }

    @Test
    void unknownQueuesAndXaAreRefused() {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            try (Transaction tx = mikyu.beginTransaction()) {
                assertThatThrownBy(() -> tx.append("missing", Entry.of("x")))
                        .isInstanceOf(QueueNotFoundException.class);
                assertThatThrownBy(() -> tx.enqueue("missing", Task.of("x")))
                        .isInstanceOf(QueueNotFoundException.class);
                assertThatThrownBy(() -> tx.prepare(new byte[]{1})).isInstanceOf(UnsupportedOperationException.class)
                        .hasMessageContaining("XA");
            }
        }
    }

    @Test
    void transactionsOfManyThreadsEachCommitWhole() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            LogQueue events = mikyu.createLog("events");
            int threads = 4;
            int perThread = 5;
            List<Thread> started = new java.util.ArrayList<>();
            java.util.Queue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread thread = new Thread(() -> {
                    try {
                        for (int i = 0; i < perThread; i++) {
                            try (Transaction tx = mikyu.beginTransaction()) {
                                tx.append("events", Entry.of(id + "-" + i + "-a"))
                                        .append("events", Entry.of(id + "-" + i + "-b"));
                                tx.commit();
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                thread.start();
                started.add(thread);
            }
            for (Thread t : started) {
                t.join(WAIT.toMillis());
            }
            assertThat(failures).isEmpty();
            List<String> read = readAll(events, threads * perThread * 2);
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < perThread; i++) {
                    // Each committed whole, its two sends in order (other transactions' records may come between).
                    int a = read.indexOf(t + "-" + i + "-a");
                    int b = read.indexOf(t + "-" + i + "-b");
                    assertThat(a).as("transaction " + t + "-" + i).isNotNegative().isLessThan(b);
                }
            }
        }
    }

    /** The first {@code count} records of the log (a read returns what one fetch brought). */
    private static List<String> readAll(LogQueue log, int count) throws InterruptedException {
        List<String> out = new java.util.ArrayList<>();
        long next = 0;
        long giveUpAt = System.nanoTime() + WAIT.toNanos();
        while (out.size() < count && System.nanoTime() - giveUpAt < 0) {
            for (Record r : log.poll(next, count, Long.MAX_VALUE, Duration.ofSeconds(1))) {
                out.add(r.payloadAsString());
                next = r.offset() + 1;
            }
        }
        assertThat(out).as("records of " + log.name()).hasSize(count);
        return out;
    }

    private static LeasedTask dequeueOne(TaskQueue queue) throws InterruptedException {
        List<LeasedTask> got = queue.dequeue(1, LEASE, WAIT, null);
        assertThat(got).as("a task within " + WAIT).hasSize(1);
        return got.get(0);
    }
}
