package io.mikyu.engine.task;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static io.mikyu.engine.task.TaskTesting.LONG_LEASE;
import static io.mikyu.engine.task.TaskTesting.fast;
import static io.mikyu.engine.task.TaskTesting.payloads;
import static io.mikyu.engine.task.TaskTesting.takeNow;
import static org.assertj.core.api.Assertions.assertThat;

@Timeout(30)
class EnqueueDequeueAckTest {

    @TempDir
    Path data;

    /** A clock that stands still unless moved, so that times the store reports can be checked exactly. */
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu openWithClock() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    @Test
    void aTaskComesBackWithItsPayloadHeadersPriorityFirstAttemptAndAToken() throws Exception {
        try (Mikyu store = openWithClock()) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            Headers headers = Headers.builder().add("type", "order").add("region", "eu").add("region", "us")
                    .add("empty", (String) null).build();
            long enqueuedAt = clock.wallMillis();
            long id = q.enqueue(Task.of("hello").withHeaders(headers).withPriority(7));

            clock.advance(Duration.ofSeconds(3));
            long dequeuedAt = clock.steadyMillis();
            LeasedTask t = q.dequeue(1, Duration.ofSeconds(20), Duration.ZERO, null).get(0);
            assertThat(t.id()).isEqualTo(id);
            assertThat(t.payloadAsString()).isEqualTo("hello");
            assertThat(t.headers()).isEqualTo(headers);
            assertThat(t.headers().getString("region")).isEqualTo("us");
            assertThat(t.priority()).isEqualTo(7);
            assertThat(t.attempt()).isEqualTo(1);
            assertThat(t.expiresAt()).as("no TTL").isZero();
            assertThat(t.enqueuedAt()).isEqualTo(enqueuedAt);
            assertThat(t.leaseExpiresAt()).as("lease of 20 s from the dequeue").isEqualTo(dequeuedAt + 20_000);
            assertThat(t.token()).isNotNull();
            assertThat(t.token().taskId()).isEqualTo(id);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 1));

            q.ack(t.token());
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
            clock.advance(Duration.ofMinutes(1)); // past the lease: an acked task does not come back
            assertThat(takeNow(q, 1)).isEmpty();
        }
    }

    @Test
    void theDefaultDequeueUsesTheConfiguredLeaseAndReturnsNullWhenEmpty() throws Exception {
        try (Mikyu store = openWithClock()) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withDefaultLease(Duration.ofSeconds(42)));
            assertThat(q.dequeue(Duration.ZERO)).isNull();
            q.enqueue(Task.of("x"));
            LeasedTask t = q.dequeue(Duration.ZERO);
            assertThat(t).isNotNull();
            assertThat(t.priority()).isEqualTo(Task.DEFAULT_PRIORITY);
            assertThat(t.leaseExpiresAt()).isEqualTo(clock.steadyMillis() + 42_000);
        }
    }

    @Test
    void idsIncreaseInEnqueueOrder() {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            long previous = -1;
            for (int i = 0; i < 50; i++) {
                long id = q.enqueue(Task.of("t" + i));
                assertThat(id).isGreaterThan(previous);
                previous = id;
            }
        }
    }

    @Test
    void enqueueBatchReturnsTheFirstIdAndTheOthersFollowConsecutively() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            long single = q.enqueue(Task.of("single"));
            List<Task> batch = IntStream.range(0, 10).mapToObj(i -> Task.of("b" + i)).toList();
            long first = q.enqueueBatch(batch);
            assertThat(first).isGreaterThan(single);
            long next = q.enqueue(Task.of("after"));
            assertThat(next).isGreaterThan(first + 9);

            List<LeasedTask> got = takeNow(q, 100);
            assertThat(payloads(got)).containsExactly("single", "b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7",
                    "b8", "b9", "after");
            for (int i = 0; i < 10; i++) {
                assertThat(got.get(1 + i).id()).as("id of b%d", i).isEqualTo(first + i);
            }
            assertThat(got.get(0).id()).isEqualTo(single);
            assertThat(got.get(11).id()).isEqualTo(next);
        }
    }

    @Test
    void dequeueOfSeveralReturnsUpToMaxTasksEachWithItsOwnToken() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            for (int i = 0; i < 7; i++) {
                q.enqueue(Task.of("t" + i));
            }
            List<LeasedTask> first = q.dequeue(5, LONG_LEASE, Duration.ofSeconds(1), null);
            assertThat(payloads(first)).containsExactly("t0", "t1", "t2", "t3", "t4");
            assertThat(first.stream().map(LeasedTask::token).distinct()).hasSize(5);
            assertThat(first).allSatisfy(t -> assertThat(t.attempt()).isEqualTo(1));
            List<LeasedTask> rest = q.dequeue(5, LONG_LEASE, Duration.ofSeconds(1), null);
            assertThat(payloads(rest)).containsExactly("t5", "t6");
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 7));

            List<LeaseToken> tokens = new ArrayList<>();
            first.forEach(t -> tokens.add(t.token()));
            rest.forEach(t -> tokens.add(t.token()));
            q.ack(tokens);
            assertThat(q.counts()).isEqualTo(new TaskCounts(0, 0, 0));
        }
    }

    @Test
    void aTokenParsedFromItsTextFormWorksLikeTheOriginal() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            long id = q.enqueue(Task.of("x"));
            LeasedTask t = takeNow(q, 1).get(0);
            String text = t.token().toString();
            assertThat(text).startsWith(id + "-");
            LeaseToken parsed = LeaseToken.parse(text);
            assertThat(parsed).isEqualTo(t.token());
            q.ack(parsed);
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void largeAndEmptyPayloadsRoundTrip() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            byte[] big = new byte[1024 * 1024];
            for (int i = 0; i < big.length; i++) {
                big[i] = (byte) (i * 31);
            }
            q.enqueue(Task.of(big));
            q.enqueue(Task.of(new byte[0]));
            List<LeasedTask> got = takeNow(q, 2);
            assertThat(got.get(0).payload()).isEqualTo(big);
            assertThat(got.get(1).payload()).isEmpty();
        }
    }

    @Test
    void ackedTasksAreNeverDeliveredAgain() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withDefaultLease(Duration.ofMillis(200)));
            for (int i = 0; i < 5; i++) {
                q.enqueue(Task.of("t" + i));
            }
            List<LeasedTask> got = q.dequeue(5, Duration.ofMillis(200), Duration.ZERO, null);
            got.forEach(t -> q.ack(t.token()));
            // well past lease + backoff: nothing may come back
            assertThat(q.dequeue(5, LONG_LEASE, Duration.ofMillis(600), null)).isEmpty();
            assertThat(q.counts().depth()).isZero();
        }
    }

    @Test
    void statsDescribeATaskQueue() {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast());
            q.enqueue(Task.of("a"));
            q.enqueueBatch(List.of(Task.of("b"), Task.of("c")));
            QueueStats stats = q.stats();
            assertThat(stats.kind()).isEqualTo(QueueKind.TASK);
            assertThat(stats.name()).isEqualTo("jobs");
            assertThat(stats.appendedRecords()).as("every enqueue is a record in the queue's log")
                    .isGreaterThanOrEqualTo(3);
            assertThat(stats.appendedBytes()).isPositive();
            QueueStats dlq = q.deadLetters().stats();
            assertThat(dlq.kind()).isEqualTo(QueueKind.TASK);
            assertThat(dlq.name()).isEqualTo("jobs/dlq");
        }
    }

    @Test
    void theQueueKnowsItsNameAndConfig() {
        try (Mikyu store = Mikyu.open(data)) {
            TaskQueue q = store.createTaskQueue("jobs", fast().withMaxAttempts(3));
            assertThat(q.name()).isEqualTo("jobs");
            assertThat(q.config()).isEqualTo(fast().withMaxAttempts(3));
        }
    }
}
