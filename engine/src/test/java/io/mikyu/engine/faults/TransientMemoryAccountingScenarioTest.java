package io.mikyu.engine.faults;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.EngineConfig.TransientMemoryPolicy;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.MemoryLimitException;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The transient-memory budget under random work: transient enqueues of random sizes, headers, delays and lives;
 * leases that are acked, nacked (to the dead-letter queue after two), or left to run out; the clock moved past
 * leases, delays and expiries; purges and queue deletions. After every step each queue's counted tasks equal its
 * depth and the store's counts equal the queues' sums; once everything is gone, nothing is counted. Each cycle's
 * seed is in its failure ({@code -Dmikyu.faults.seed=S} replays it).
 */
@Tag("faults")
class TransientMemoryAccountingScenarioTest {

    private static final int CYCLES = Integer.getInteger("mikyu.faults.cycles", 5);
    private static final int STEPS = 300;
    private static final List<String> QUEUES = List.of("a", "b");

    @TempDir
    Path data;

    @Test
    void theBudgetMatchesWhatIsHeldAfterEveryStep() throws Exception {
        long base = Long.getLong("mikyu.faults.seed", System.nanoTime());
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            long seed = base + cycle;
            try {
                runCycle(new Random(seed), data.resolve("c" + cycle));
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("cycle " + cycle + ", seed " + seed + " (-Dmikyu.faults.seed=" + seed
                        + " -Dmikyu.faults.cycles=1): " + e.getMessage(), e);
            }
        }
    }

    private static void runCycle(Random random, Path dir) throws Exception {
        MeterRegistry meters = new SimpleMeterRegistry();
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        EngineConfig config = EngineConfig.builder().meterRegistry(meters).timeSource(clock)
                .transientMemoryLimit(64 << 10).transientMemoryPolicy(TransientMemoryPolicy.FAIL).build();
        TaskQueueConfig queueConfig = TaskQueueConfig.defaults().withMaxAttempts(2);
        try (Mikyu store = Mikyu.open(dir, config)) {
            for (String q : QUEUES) {
                store.createTaskQueue(q, queueConfig);
            }
            List<LeasedTask> held = new ArrayList<>();
            List<String> heldFrom = new ArrayList<>();
            for (int step = 0; step < STEPS; step++) {
                String name = QUEUES.get(random.nextInt(QUEUES.size()));
                TaskQueue q = store.taskQueue(name);
                switch (random.nextInt(10)) {
                    case 0, 1, 2 -> {
                        try {
                            q.enqueueTransient(List.of(task(random, clock)));
                        } catch (MemoryLimitException full) {
                            // expected now and then: the limit is small
                        }
                    }
                    case 3, 4 -> {
                        for (LeasedTask t : q.dequeue(1 + random.nextInt(3), Duration.ofSeconds(10), Duration.ZERO,
                                null)) {
                            held.add(t);
                            heldFrom.add(name);
                        }
                    }
                    case 5 -> settle(store, held, heldFrom, random, true);
                    case 6 -> settle(store, held, heldFrom, random, false);
                    case 7 -> clock.advance(Duration.ofSeconds(1 + random.nextInt(15)));
                    case 8 -> {
                        TaskQueue dlq = q.deadLetters();
                        for (LeasedTask t : dlq.dequeue(2, Duration.ofSeconds(10), Duration.ZERO, null)) {
                            dlq.ack(t.token());
                        }
                    }
                    default -> {
                        if (random.nextInt(4) == 0) {
                            store.deleteTaskQueue(name);
                            store.createTaskQueue(name, queueConfig);
                            for (int i = held.size() - 1; i >= 0; i--) {
                                if (heldFrom.get(i).equals(name)) {
                                    held.remove(i);
                                    heldFrom.remove(i);
                                }
                            }
                        } else {
                            q.purge();
                        }
                    }
                }
                String when = "after step " + step;
                // The store's timer may be moving a dead letter meanwhile: the counts agree once it is done.
                await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
                        .untilAsserted(() -> check(store, meters, when));
            }
            for (String name : QUEUES) {
                store.deleteTaskQueue(name);
            }
            assertThat(gauge(meters, "mikyu.engine.transient.bytes")).as("bytes counted with every queue gone")
                    .isZero();
            assertThat(gauge(meters, "mikyu.engine.transient.tasks")).as("tasks counted with every queue gone")
                    .isZero();
        }
    }

    private static Task task(Random random, SteppableTimeSource clock) {
        Headers headers = random.nextBoolean() ? Headers.EMPTY : Headers.of("k" + random.nextInt(5), "v".repeat(
                random.nextInt(40)));
        long deliverAt = random.nextInt(5) == 0 ? clock.wallAfter(Duration.ofSeconds(random.nextInt(20))).toEpochMilli()
                : 0;
        long expiresAt = random.nextInt(4) == 0 ? clock.wallAfter(Duration.ofSeconds(1 + random.nextInt(30)))
                .toEpochMilli() : 0;
        return new Task(new byte[random.nextInt(4_000)], headers, random.nextInt(10), deliverAt, expiresAt);
    }

    /** Acks ({@code ack}) or nacks one held task; a stale lease (it ran out, or its queue went) is refused. */
    private static void settle(Mikyu store, List<LeasedTask> held, List<String> heldFrom, Random random,
                               boolean ack) {
        if (held.isEmpty()) {
            return;
        }
        int i = random.nextInt(held.size());
        LeasedTask t = held.remove(i);
        TaskQueue q = store.taskQueue(heldFrom.remove(i));
        try {
            if (ack) {
                q.ack(t.token());
            } else {
                q.nack(t.token(), Duration.ZERO, "random");
            }
        } catch (io.mikyu.engine.StaleLeaseException stale) {
            // its lease ran out meanwhile
        }
    }

    private static void check(Mikyu store, MeterRegistry meters, String when) {
        double bytes = 0;
        double tasks = 0;
        for (String name : QUEUES) {
            for (TaskQueue q : List.of(store.taskQueue(name), store.taskQueue(name).deadLetters())) {
                double counted = meters.get("mikyu.queue.transient.tasks").tag("queue", q.name()).gauge().value();
                TaskCounts counts = q.counts();
                assertThat(counted).as("%s: tasks counted for %s (%s)", when, q.name(), counts)
                        .isEqualTo(counts.depth());
                tasks += counted;
                bytes += meters.get("mikyu.queue.transient.bytes").tag("queue", q.name()).gauge().value();
            }
        }
        assertThat(gauge(meters, "mikyu.engine.transient.tasks")).as("%s: store's tasks", when).isEqualTo(tasks);
        assertThat(gauge(meters, "mikyu.engine.transient.bytes")).as("%s: store's bytes", when).isEqualTo(bytes);
    }

    private static double gauge(MeterRegistry meters, String name) {
        return meters.get(name).gauge().value();
    }
}
