package io.mikyu.broker.server;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.Transaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Producers held back to their consumers' pace (producer pacing, up to 50 ms an enqueue) must not hold the broker's
 * worker threads meanwhile: another client's dequeues, acks and commits are answered as promptly as without them.
 * The broker here has 2 workers and 48 producers pacing: were each paced enqueue to wait on a worker, both workers
 * would be seen waiting in a producer's pacing at almost any moment, and every other request would queue behind
 * about 24 pacing waits (the other client's 20 rounds took 11 s with 32 producers; without that, about a second).
 */
@Timeout(180)
class PacedProducersTest {

    private static final int PRODUCERS = 48;
    private static final int WORKERS = 2;
    private static final int PACE_ABOVE = 200;
    private static final int ROUNDS = 20;
    private static final int PRODUCERS_ON_ONE_CONNECTION = 32;
    private static final int ROUNDS_ON_ONE_CONNECTION = 40;
    /** Far above what the rounds take (about 1 s), far below what they took when paced waits held them (11-13 s). */
    private static final Duration ROUNDS_DEADLINE = Duration.ofSeconds(8);

    @TempDir
    Path dir;

    @Test
    void pacedProducersLeaveTheWorkersToEveryoneElse() throws Exception {
        EngineConfig engine = EngineConfig.builder().maxRecordBytes(256 << 10).paceProducersAbove(PACE_ABOVE).build();
        ExecutorService threads = Executors.newFixedThreadPool(PRODUCERS + 1);
        AtomicBoolean running = new AtomicBoolean(true);
        try (RunningBroker broker = new RunningBroker(dir, engine, o -> new BrokerOptions(o.endpoints(),
                o.maxFrameBytes(), o.heartbeat(), WORKERS, o.maxWaitingCalls(), o.shutdownGrace(), o.serverName(),
                o.realm(), o.tls(), o.meterRegistry(), o.admission()))) {
            TaskQueue jobs = broker.store().createTaskQueue("jobs");
            for (int i = 0; i < 10; i++) {
                jobs.enqueueBatch(tasks(PACE_ABOVE));
            }
            TaskQueue side = broker.store().createTaskQueue("side");
            side.enqueueBatch(tasks(ROUNDS));

            // A consumer that keeps taking, slowly: what paces the producers.
            CountDownLatch consuming = new CountDownLatch(1);
            List<Future<?>> work = new ArrayList<>();
            work.add(threads.submit(() -> {
                while (running.get()) {
                    for (LeasedTask t : jobs.dequeue(1, Duration.ofMinutes(5), Duration.ofMillis(10), null)) {
                        jobs.ack(t.token());
                    }
                    consuming.countDown();
                    // The consumer's steady, slow pace is what the producers are paced to (the workload of the
                    // scenario), not a wait for something to happen.
                    Thread.sleep(5);
                }
                return null;
            }));
            assertThat(consuming.await(30, TimeUnit.SECONDS)).isTrue();
            AtomicLong produced = new AtomicLong();
            for (int p = 0; p < PRODUCERS; p++) {
                Mikyu producer = broker.dial("?clientName=producer-" + p);
                TaskQueue q = producer.taskQueue("jobs");
                work.add(threads.submit(() -> {
                    while (running.get()) {
                        q.enqueueBatch(tasks(1), Durability.ASYNC);
                        produced.incrementAndGet();
                    }
                    return null;
                }));
            }
            // The producers are under way and paced: the queue stays crowded while they add.
            long before = produced.get();
            await("the producers under way").atMost(Duration.ofSeconds(60))
                    .until(() -> produced.get() >= before + 4L * PRODUCERS);
            assertThat(jobs.counts().ready()).as("the crowded queue").isGreaterThan(PACE_ABOVE);

            Mikyu other = broker.dial("?clientName=other");
            TaskQueue sideQueue = other.taskQueue("side");
            long start = System.nanoTime();
            for (int i = 0; i < ROUNDS; i++) {
                List<LeasedTask> got = sideQueue.dequeue(1, Duration.ofMinutes(1), Duration.ZERO, null);
                assertThat(got).hasSize(1);
                sideQueue.ack(got.get(0).token());
                Transaction tx = other.beginTransaction();
                tx.enqueue("side", Task.of("round " + i));
                tx.commit();
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf("%d rounds of another client beside %d paced producers: %d ms%n", ROUNDS, PRODUCERS,
                    took.toMillis());
            assertThat(took).as("%d dequeue, ack and commit rounds of another client beside %d paced producers",
                    ROUNDS, PRODUCERS).isLessThan(ROUNDS_DEADLINE);
            assertThat(produced.get()).as("enqueues the producers made").isGreaterThan(before);
            running.set(false);
            for (Future<?> f : work) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            running.set(false);
            threads.shutdown();
            assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    /**
     * JMS connections of one application to one broker share a network connection. A producer paced on it must
     * hold back only its own enqueues: the consumers' takes and acks on the same connection are what make room for
     * it, so were the whole connection left unread while an enqueue waits, its consumers would crawl at the
     * pacing timer's rate (and the producers with them).
     */
    @Test
    void aPacedProducerLeavesTheRestOfItsConnectionAlone() throws Exception {
        EngineConfig engine = EngineConfig.builder().paceProducersAbove(PACE_ABOVE).build();
        ExecutorService threads = Executors.newFixedThreadPool(PRODUCERS_ON_ONE_CONNECTION + 1);
        AtomicBoolean running = new AtomicBoolean(true);
        try (RunningBroker broker = new RunningBroker(dir, engine, o -> o)) {
            TaskQueue jobs = broker.store().createTaskQueue("jobs");
            for (int i = 0; i < 10; i++) {
                jobs.enqueueBatch(tasks(PACE_ABOVE));
            }
            broker.store().createTaskQueue("side").enqueueBatch(tasks(ROUNDS_ON_ONE_CONNECTION));
            Mikyu shared = broker.dial("?clientName=application");

            // A consumer on another connection keeps taking, slowly: what paces the producers.
            CountDownLatch consuming = new CountDownLatch(1);
            List<Future<?>> work = new ArrayList<>();
            work.add(threads.submit(() -> {
                while (running.get()) {
                    for (LeasedTask t : jobs.dequeue(1, Duration.ofMinutes(5), Duration.ofMillis(10), null)) {
                        jobs.ack(t.token());
                    }
                    consuming.countDown();
                    // The consumer's steady, slow pace is what the producers are paced to.
                    Thread.sleep(5);
                }
                return null;
            }));
            assertThat(consuming.await(30, TimeUnit.SECONDS)).isTrue();
            AtomicLong produced = new AtomicLong();
            TaskQueue q = shared.taskQueue("jobs");
            for (int p = 0; p < PRODUCERS_ON_ONE_CONNECTION; p++) {
                work.add(threads.submit(() -> {
                    while (running.get()) {
                        q.enqueueBatch(tasks(1), Durability.ASYNC);
                        produced.incrementAndGet();
                    }
                    return null;
                }));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> produced.get() >= 4L * PRODUCERS_ON_ONE_CONNECTION);
            assertThat(jobs.counts().ready()).as("the crowded queue").isGreaterThan(PACE_ABOVE);

            TaskQueue sideQueue = shared.taskQueue("side");
            long start = System.nanoTime();
            for (int i = 0; i < ROUNDS_ON_ONE_CONNECTION; i++) {
                List<LeasedTask> got = sideQueue.dequeue(1, Duration.ofMinutes(1), Duration.ZERO, null);
                assertThat(got).hasSize(1);
                sideQueue.ack(got.get(0).token());
                Transaction tx = shared.beginTransaction();
                tx.enqueue("side", Task.of("round " + i));
                tx.commit();
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf("%d rounds on the connection of %d paced producers: %d ms%n", ROUNDS_ON_ONE_CONNECTION,
                    PRODUCERS_ON_ONE_CONNECTION, took.toMillis());
            assertThat(took).as("%d dequeue, ack and commit rounds on the connection of %d paced producers",
                    ROUNDS_ON_ONE_CONNECTION, PRODUCERS_ON_ONE_CONNECTION).isLessThan(ROUNDS_DEADLINE);
            running.set(false);
            for (Future<?> f : work) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            running.set(false);
            threads.shutdown();
            assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static List<Task> tasks(int n) {
        List<Task> tasks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tasks.add(Task.of("job " + i));
        }
        return tasks;
    }
}
