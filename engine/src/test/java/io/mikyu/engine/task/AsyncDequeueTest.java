package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.spi.AsyncDequeue;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.fast;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Dequeues a transport starts without holding a thread: taken now, called back when ready, or declined. */
class AsyncDequeueTest {

    @TempDir
    Path data;

    private static AsyncDequeue.Completion completing(CompletableFuture<List<LeasedTask>> f) {
        return new AsyncDequeue.Completion() {
            @Override
            public void completed(List<LeasedTask> tasks) {
                f.complete(tasks);
            }

            @Override
            public void failed(RuntimeException failure) {
                f.completeExceptionally(failure);
            }
        };
    }

    @Test
    void readyTasksAreLeasedAndHandedToTheContinuationOnceTheirLeasesAreWritten() throws Exception {
        ExecutorService continuation = Executors.newSingleThreadExecutor(r -> new Thread(r, "continuation"));
        try {
            try (Mikyu store = Mikyu.open(data)) {
                TaskQueue q = store.createTaskQueue("jobs", fast());
                q.enqueueBatch(List.of(Task.of("a"), Task.of("b"), Task.of("c")));
                CompletableFuture<List<LeasedTask>> got = new CompletableFuture<>();
                CompletableFuture<String> on = new CompletableFuture<>();
                AsyncDequeue.Start start = ((AsyncDequeue) q).tryDequeueAsync(2, LONG_LEASE, null, continuation,
                        new AsyncDequeue.Completion() {
                            @Override
                            public void completed(List<LeasedTask> tasks) {
                                on.complete(Thread.currentThread().getName());
                                got.complete(tasks);
                            }

                            @Override
                            public void failed(RuntimeException failure) {
                                got.completeExceptionally(failure);
                            }
                        }, () -> { });
                assertThat(start).isEqualTo(AsyncDequeue.Start.TAKEN);
                List<LeasedTask> tasks = got.get(5, TimeUnit.SECONDS);
                assertThat(on.get()).isEqualTo("continuation");
                assertThat(tasks).extracting(t -> new String(t.payload())).containsExactly("a", "b");
                assertThat(tasks).extracting(LeasedTask::attempt).containsOnly(1);
                assertThat(q.counts().inFlight()).isEqualTo(2);
                assertThat(q.counts().ready()).isEqualTo(1);
            }
            try (Mikyu store = Mikyu.open(data)) {
                // the leases were written: after a reopen the two stay leased, the third is ready
                TaskQueue q = store.taskQueue("jobs");
                assertThat(q.counts().inFlight()).isEqualTo(2);
                assertThat(q.dequeue(10, LONG_LEASE, Duration.ZERO, null)).extracting(t -> new String(t.payload()))
                        .containsExactly("c");
            }
        } finally {
            continuation.shutdownNow();
        }
    }

    @Test
    void anEmptyQueueCallsBackOnceWhenATaskArrivesHoweverOftenTheCallerRegistered() throws Exception {
        ExecutorService continuation = Executors.newSingleThreadExecutor();
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            AsyncDequeue async = (AsyncDequeue) q;
            AtomicInteger calls = new AtomicInteger();
            Runnable whenReady = calls::incrementAndGet;
            CompletableFuture<List<LeasedTask>> unused = new CompletableFuture<>();
            for (int i = 0; i < 3; i++) {
                assertThat(async.tryDequeueAsync(1, LONG_LEASE, null, continuation, completing(unused), whenReady))
                        .isEqualTo(AsyncDequeue.Start.WAITING);
            }
            assertThat(calls).hasValue(0);
            q.enqueue(Task.of("x"));
            assertThat(calls).hasValue(1);
            q.enqueue(Task.of("y"));
            assertThat(calls).as("one-shot: not registered any more").hasValue(1);
            CompletableFuture<List<LeasedTask>> got = new CompletableFuture<>();
            assertThat(async.tryDequeueAsync(5, LONG_LEASE, null, continuation, completing(got), whenReady))
                    .isEqualTo(AsyncDequeue.Start.TAKEN);
            assertThat(got.get(5, TimeUnit.SECONDS)).hasSize(2);
            assertThat(unused).isNotDone();
        } finally {
            continuation.shutdownNow();
        }
    }

    @Test
    void aCancelledRegistrationIsNotCalled() throws Exception {
        ExecutorService continuation = Executors.newSingleThreadExecutor();
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            AsyncDequeue async = (AsyncDequeue) q;
            AtomicInteger calls = new AtomicInteger();
            Runnable whenReady = calls::incrementAndGet;
            assertThat(async.tryDequeueAsync(1, LONG_LEASE, null, continuation, completing(new CompletableFuture<>()),
                    whenReady)).isEqualTo(AsyncDequeue.Start.WAITING);
            async.cancelWhenReady(whenReady);
            q.enqueue(Task.of("x"));
            assertThat(calls).hasValue(0);
        } finally {
            continuation.shutdownNow();
        }
    }

    @Test
    void aQueueWithDueWorkDeclinesSoThatTheBlockingCallAppliesIt() throws Exception {
        ExecutorService continuation = Executors.newSingleThreadExecutor();
        SteppableTimeSource clock = SteppableTimeSource.startingNow();
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().timeSource(clock).build())) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("x"));
            LeasedTask first = q.dequeue(1, Duration.ofMillis(50), Duration.ZERO, null).get(0);
            // Its lease and the 50 ms backoff after it are over at once: nobody applied that yet, or the store's
            // timer just did, and then the task is ready (never still backing off, whenever the timer runs).
            clock.advance(Duration.ofMillis(50 + 50));
            AsyncDequeue async = (AsyncDequeue) q;
            CompletableFuture<List<LeasedTask>> got = new CompletableFuture<>();
            AsyncDequeue.Start start = async.tryDequeueAsync(1, LONG_LEASE, null, continuation, completing(got),
                    () -> { });
            if (start == AsyncDequeue.Start.DECLINED) {
                List<LeasedTask> again = q.dequeue(1, LONG_LEASE, Duration.ofSeconds(5), null); // after its backoff
                assertThat(again).extracting(LeasedTask::attempt).containsExactly(2);
            } else {
                assertThat(start).isEqualTo(AsyncDequeue.Start.TAKEN);
                assertThat(got.get(5, TimeUnit.SECONDS)).extracting(LeasedTask::id).containsExactly(first.id());
            }
        } finally {
            continuation.shutdownNow();
        }
    }

    @Test
    void aDeletedQueueRefusesAndCallsItsWaitersBack() throws Exception {
        ExecutorService continuation = Executors.newSingleThreadExecutor();
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            AsyncDequeue async = (AsyncDequeue) q;
            AtomicInteger calls = new AtomicInteger();
            assertThat(async.tryDequeueAsync(1, LONG_LEASE, null, continuation, completing(new CompletableFuture<>()),
                    calls::incrementAndGet)).isEqualTo(AsyncDequeue.Start.WAITING);
            store.deleteTaskQueue("jobs");
            assertThat(calls).as("told, so that it tries again and learns").hasValue(1);
            assertThatThrownBy(() -> async.tryDequeueAsync(1, LONG_LEASE, null, continuation,
                    completing(new CompletableFuture<>()), () -> { })).isInstanceOf(StoreClosedException.class);
        } finally {
            continuation.shutdownNow();
        }
    }
}
