package io.mikyu.kafka.task;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.kafka.share.ShareLeases;
import io.mikyu.kafka.support.KafkaTestCluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The share consumers (members of the group) of one task-queue handle: a steady load of several consumers does not
 * keep adding members (each a group join), and once the load stops the idle ones are retired, down to one that
 * still serves the next fetch; no task is lost or delivered twice meanwhile.
 */
@Tag("kafka")
@ExtendWith(KafkaTestCluster.Shared.class)
class KafkaShareMembersTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final int CONSUMERS = 4;

    @Test
    void membersStayBoundedUnderASteadyLoadAndAnIdleHandleShrinksToOne() throws Exception {
        try (Mikyu mikyu = KafkaTestCluster.dial()) {
            HandleLeases.Queue queue = HandleLeases.afterOneTask(mikyu, "members", LEASE, "first");
            KafkaTaskQueue jobs = queue.jobs();
            ShareLeases leases = queue.leases();
            // Retired sooner than by default, so that the test sees it; a steady load uses its members more often.
            leases.retireIdleMembersAfter(Duration.ofSeconds(3));

            Set<String> received = ConcurrentHashMap.newKeySet();
            AtomicInteger duplicates = new AtomicInteger();
            AtomicBoolean producing = new AtomicBoolean(true);
            AtomicInteger sent = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(CONSUMERS + 1);
            try {
                Future<?> producer = pool.submit(() -> {
                    while (producing.get()) {
                        // As fast as the cluster takes them: one replicated write at a time.
                        jobs.enqueue(Task.of("task " + sent.get()));
                        sent.incrementAndGet();
                    }
                    return null;
                });
                List<Future<?>> consumers = new ArrayList<>();
                for (int c = 0; c < CONSUMERS; c++) {
                    consumers.add(pool.submit(() -> {
                        while (producing.get() || received.size() < sent.get()) {
                            List<LeasedTask> got = jobs.dequeue(8, LEASE, Duration.ofMillis(100), null);
                            List<LeaseToken> tokens = new ArrayList<>();
                            for (LeasedTask t : got) {
                                if (!received.add(t.payloadAsString())) {
                                    duplicates.incrementAndGet();
                                }
                                tokens.add(t.token());
                            }
                            if (!tokens.isEmpty()) {
                                jobs.ack(tokens);
                            }
                        }
                        return null;
                    }));
                }
                // A steady load, long enough for idle members to be retired and made again if they were churned:
                // the members made stay bounded all along.
                await().during(Duration.ofSeconds(20)).atMost(Duration.ofSeconds(25))
                        .until(() -> leases.membersMade() <= 2 * CONSUMERS
                                && consumers.stream().noneMatch(Future::isDone) && !producer.isDone());
                long madeUnderLoad = leases.membersMade();
                producing.set(false);
                producer.get(1, TimeUnit.MINUTES);
                for (Future<?> c : consumers) {
                    c.get(2, TimeUnit.MINUTES);
                }
                System.out.printf("%d tasks, %d members made under load (%d now, %d retired)%n", sent.get(),
                        madeUnderLoad, leases.members(), leases.membersRetired());
                assertThat(received).hasSize(sent.get());
                assertThat(duplicates).hasValue(0);
                assertThat(madeUnderLoad).as("the load needed more than one member: else none is retired")
                        .isGreaterThan(1);
            } finally {
                producing.set(false);
                pool.shutdownNow();
            }

            // Idle: every member but one is retired, each a group leave.
            await().atMost(Duration.ofSeconds(60)).until(() -> leases.members() == 1);
            assertThat(leases.membersRetired()).isPositive();

            // The one left serves the next fetch, and nothing left behind comes again.
            jobs.enqueue(Task.of("after"));
            LeasedTask after = jobs.dequeue(1, LEASE, Duration.ofMinutes(2), null).get(0);
            assertThat(after.payloadAsString()).isEqualTo("after");
            assertThat(after.attempt()).isEqualTo(1);
            jobs.ack(after.token());
            assertThat(jobs.dequeue(10, LEASE, Duration.ofSeconds(2), null)).isEmpty();
            assertThat(leases.members()).isEqualTo(1);
        }
    }
}
