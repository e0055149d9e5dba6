package io.mikyu.engine.task;

import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.spi.AsyncWrites;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.mikyu.engine.task.TaskTesting.fast;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Producer pacing ({@link EngineConfig#paceProducersAbove()}): a crowded queue whose consumers are taking tasks
 * holds its producers back to the consumers' pace; a queue nobody consumes from buffers without limit.
 */
@Timeout(120)
class ProducerPacingTest {

    private static final int LIMIT = 1_000;
    private static final int BATCH = 50;

    @TempDir
    Path data;

    private static List<Task> batch(int n) {
        List<Task> tasks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tasks.add(Task.of("t" + i));
        }
        return tasks;
    }

    @Test
    void aQueueNobodyConsumesFromBuffersPastTheLimit() {
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().paceProducersAbove(LIMIT).build())) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 20 * LIMIT / BATCH; i++) {
                q.enqueueBatch(batch(BATCH));
            }
            assertThat(q.counts().ready()).isEqualTo(20 * LIMIT);
        }
    }

    /**
     * A store whose steady clock stands still: consumers that took count as taking however long the machine leaves
     * their thread unscheduled (pacing lets producers go once consumers took nothing for 20 ms of the engine's
     * steady time), and no producer's longest wait runs out. Waits are real time all the same.
     */
    private Mikyu openOnAStillClock(SteppableTimeSource clock) {
        return Mikyu.open(data, EngineConfig.builder().paceProducersAbove(LIMIT).timeSource(clock).build());
    }

    @Test
    void producersOfACrowdedQueueKeepToThePaceOfItsConsumers() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Mikyu store = openOnAStillClock(SteppableTimeSource.startingNow())) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 2 * LIMIT / BATCH; i++) {
                q.enqueueBatch(batch(BATCH)); // twice the limit before anyone consumes: not paced
            }
            AtomicBoolean producing = new AtomicBoolean(true);
            CountDownLatch consuming = new CountDownLatch(1);
            Future<Integer> consumer = pool.submit(() -> {
                int taken = 0;
                while (producing.get() || q.counts().ready() > 0) {
                    List<LeasedTask> tasks = q.dequeue(BATCH / 5, Duration.ofMinutes(1), Duration.ofMillis(10), null);
                    List<LeaseToken> tokens = new ArrayList<>();
                    tasks.forEach(t -> tokens.add(t.token()));
                    q.ack(tokens);
                    taken += tasks.size();
                    consuming.countDown();
                }
                return taken;
            });
            // Pacing holds producers to consumers that are taking: not to one whose thread has not started yet.
            assertThat(consuming.await(30, TimeUnit.SECONDS)).isTrue();
            int enqueued = 2 * LIMIT;
            int deepest = 0;
            for (int i = 0; i < 400; i++) {
                q.enqueueBatch(batch(BATCH));
                enqueued += BATCH;
                deepest = (int) Math.max(deepest, q.counts().ready());
            }
            producing.set(false);
            assertThat(consumer.get(60, TimeUnit.SECONDS)).isEqualTo(enqueued);
            // Unpaced, 400 batches of 50 go in while the consumer takes a few hundred 10-task bites: the backlog
            // grows past 19,000. Paced, each batch waits for the consumer to take as many.
            assertThat(deepest).as("deepest backlog while paced").isLessThan(6 * LIMIT);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void consumersThatStoppedTakingDoNotHoldProducersBack() throws Exception {
        ExecutorService consumer = Executors.newSingleThreadExecutor();
        ExecutorService producer = Executors.newSingleThreadExecutor();
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        try (Mikyu store = openOnAStillClock(clock)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 4 * LIMIT / BATCH; i++) {
                q.enqueueBatch(batch(BATCH));
            }
            assertThat(consumer.submit(() -> q.dequeue(1, Duration.ofMinutes(1), Duration.ZERO, null))
                    .get(30, TimeUnit.SECONDS)).hasSize(1);
            clock.advance(Duration.ofMillis(21)); // the consumer took nothing since: it is not taking any more
            // Paced, this enqueue would wait for takes that never come, on a clock on which no wait runs out.
            producer.submit(() -> q.enqueueBatch(batch(BATCH))).get(30, TimeUnit.SECONDS);
            assertThat(q.counts().ready()).isEqualTo(4 * LIMIT - 1 + BATCH);
        } finally {
            consumer.shutdownNow();
            producer.shutdownNow();
        }
    }

    @Test
    void aPacedAsynchronousEnqueueWaitsOnItsTimerWithoutHoldingTheCaller() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (Mikyu store = openOnAStillClock(SteppableTimeSource.startingNow())) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 4 * LIMIT / BATCH; i++) {
                q.enqueueBatch(batch(BATCH));
            }
            AtomicBoolean consuming = new AtomicBoolean(true);
            CountDownLatch started = new CountDownLatch(1);
            pool.submit(() -> {
                // A consumer that keeps taking, one task at a time: slower than the producer's batches of 50, so
                // the queue stays crowded and producers must keep to its pace.
                while (consuming.get()) {
                    List<LeasedTask> tasks = q.dequeue(1, Duration.ofMinutes(1), Duration.ofMillis(10), null);
                    tasks.forEach(t -> q.ack(t.token()));
                    started.countDown();
                }
                return null;
            });
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            AsyncWrites async = (AsyncWrites) q;
            int attempts = 0;
            boolean pacedOnce = false;
            while (!pacedOnce && attempts++ < 200) {
                CompletableFuture<Long> first = new CompletableFuture<>();
                AtomicInteger pacing = new AtomicInteger();
                AtomicBoolean wasPaced = new AtomicBoolean();
                boolean started2 = async.tryEnqueueAsync(batch(BATCH), Durability.ASYNC, timer,
                        new AsyncWrites.Completion() {
                            @Override
                            public void completed(long value) {
                                first.complete(value);
                            }

                            @Override
                            public void failed(RuntimeException failure) {
                                first.completeExceptionally(failure);
                            }

                            @Override
                            public void paced(boolean waiting) {
                                wasPaced.compareAndSet(false, waiting);
                                pacing.addAndGet(waiting ? 1 : -1);
                            }
                        });
                assertThat(started2).as("a crowded queue's enqueue is started, not refused").isTrue();
                assertThat(first.get(30, TimeUnit.SECONDS)).isNotNegative();
                assertThat(pacing.get()).as("every wait ended").isZero();
                pacedOnce = wasPaced.get();
            }
            assertThat(pacedOnce).as("an enqueue waited for the consumer, on the timer").isTrue();
        } finally {
            pool.shutdownNow();
            timer.shutdownNow();
        }
    }
}
