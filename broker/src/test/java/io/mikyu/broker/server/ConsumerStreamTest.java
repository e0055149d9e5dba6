package io.mikyu.broker.server;

import io.mikyu.engine.HeaderEquals;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.transport.Endpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Consumer streams: a dialled client's waiting dequeues take what the broker pushed under the client's credit
 * ({@code docs/protocol.md}, "Consumer streams"). A real broker on a loopback port, real files.
 */
class ConsumerStreamTest {

    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    @Test
    void aStreamNeverHoldsMoreTasksAheadThanItsCredit() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(100, 100));
            TaskQueue jobs = broker.dial("?streamCredit=5&streamIdle=1m").taskQueue("jobs");
            List<LeasedTask> held = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                held.addAll(jobs.dequeue(1, LEASE, WAIT, null));
                int taken = held.size();
                // Sampled while the broker pushes: never more than the credit ahead of what was taken.
                for (int sample = 0; sample < 5; sample++) {
                    assertThat(local.counts().inFlight()).isLessThanOrEqualTo(taken + 5);
                    Thread.sleep(2);
                }
            }
            awaitTrue(() -> local.counts().inFlight() == held.size() + 5, "the credit filled");
            Thread.sleep(200);
            assertThat(local.counts().inFlight()).isEqualTo(held.size() + 5);
            local.ack(held.stream().map(LeasedTask::token).toList());
            assertThat(local.counts().inFlight()).as("acks do not grant credit; taking does").isEqualTo(5);
        }
    }

    @Test
    void aStreamNeverHoldsMoreBytesAheadThanItsByteCredit() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(50, 1000));
            // A task of 1000 payload bytes takes 1070 in a DELIVERY frame: 3 fit in 3300 bytes, 4 do not.
            TaskQueue jobs = broker.dial("?streamCredit=100&streamCreditBytes=3300&streamIdle=1m").taskQueue("jobs");
            List<LeasedTask> held = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                held.addAll(jobs.dequeue(1, LEASE, WAIT, null));
                Thread.sleep(20);
                assertThat(local.counts().inFlight()).isLessThanOrEqualTo(held.size() + 3);
            }
            awaitTrue(() -> local.counts().inFlight() == held.size() + 3, "the byte credit filled");
            assertThat(held).extracting(LeasedTask::attempt).containsOnly(1);
            assertThat(local.counts().ready()).as("what went past the byte credit is back, uncounted")
                    .isEqualTo(50 - held.size() - 3);
        }
    }

    @Test
    void everyTaskIsDeliveredExactlyOnceAcrossFourCompetingRemoteConsumers() throws Exception {
        int total = 4000;
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            for (int i = 0; i < total; i += 500) {
                local.enqueueBatch(tasks(500, 64));
            }
            Map<Long, Integer> deliveries = new ConcurrentHashMap<>();
            AtomicInteger acked = new AtomicInteger();
            ExecutorService consumers = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < 4; c++) {
                    TaskQueue jobs = broker.dial("?streamCredit=32").taskQueue("jobs");
                    done.add(consumers.submit(() -> {
                        while (acked.get() < total) {
                            List<LeasedTask> got = jobs.dequeue(10, LEASE, Duration.ofMillis(200), null);
                            for (LeasedTask t : got) {
                                deliveries.merge(t.id(), 1, Integer::sum);
                                assertThat(t.attempt()).isEqualTo(1);
                            }
                            if (!got.isEmpty()) {
                                jobs.ack(got.stream().map(LeasedTask::token).toList());
                                acked.addAndGet(got.size());
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                consumers.shutdownNow();
            }
            assertThat(deliveries).hasSize(total);
            assertThat(deliveries.values()).containsOnly(1);
            assertThat(acked.get()).isEqualTo(total);
            TaskCounts left = local.counts();
            assertThat(left.ready() + left.scheduled() + left.inFlight()).isZero();
        }
    }

    @Test
    void anIdleStreamGivesItsBufferedTasksBackAtOnceWithoutCountingAnAttempt() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(20, 10));
            TaskQueue jobs = broker.dial("?streamCredit=10&streamIdle=300ms").taskQueue("jobs");
            LeasedTask taken = jobs.dequeue(1, LEASE, WAIT, null).get(0);
            awaitTrue(() -> local.counts().inFlight() == 11, "ten pushed ahead");
            long start = System.nanoTime();
            awaitTrue(() -> local.counts().inFlight() == 1, "the idle stream closed");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("well before the 60 s lease")
                    .isLessThan(Duration.ofSeconds(5));
            List<LeasedTask> rest = local.dequeue(100, LEASE, Duration.ZERO, null);
            assertThat(rest).hasSize(19).extracting(LeasedTask::attempt).containsOnly(1);
            assertThat(rest).extracting(LeasedTask::id).doesNotContain(taken.id());
        }
    }

    @Test
    void closingTheConnectionGivesTheBufferedTasksBackButNotTheTakenOnes() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(20, 10));
            Mikyu client = Mikyu.dial(broker.uri() + "?streamCredit=10&streamIdle=1m");
            List<LeasedTask> taken = client.taskQueue("jobs").dequeue(2, LEASE, WAIT, null);
            awaitTrue(() -> local.counts().inFlight() == taken.size() + 10, "ten pushed ahead");
            client.close();
            awaitTrue(() -> local.counts().inFlight() == taken.size(), "the buffered ones came back");
            assertThat(local.counts().ready()).isEqualTo(20 - taken.size());
            assertThat(local.dequeue(100, LEASE, Duration.ZERO, null)).extracting(LeasedTask::attempt)
                    .containsOnly(1);
        }
    }

    @Test
    void aStoppingBrokerLeavesWhatItPushedLeasedEvenWhileItsPumpWaitsForMore() throws Exception {
        // Its CREDIT for a task the application already took may still be unread when the broker stops: giving
        // the pushed tasks back would deliver that one again, unflagged, while the client holds it.
        Path data = dir.resolve("data");
        RunningBroker broker = new RunningBroker(data);
        TaskQueue local = broker.store().createTaskQueue("jobs");
        local.enqueueBatch(tasks(3, 10));
        try (Mikyu client = Mikyu.dial(broker.uri() + "?streamCredit=10&streamIdle=1m")) {
            assertThat(client.taskQueue("jobs").dequeue(1, LEASE, WAIT, null)).hasSize(1);
            awaitTrue(() -> local.counts().inFlight() == 3, "the other two pushed ahead; the pump waits for more");
            broker.close();
        }
        try (Mikyu reopened = Mikyu.open(data)) {
            assertThat(reopened.taskQueue("jobs").counts().inFlight()).as("nothing given back").isEqualTo(3);
            assertThat(reopened.taskQueue("jobs").counts().ready()).isZero();
        }
    }

    @Test
    void afterABrokerRestartTheReconnectedClientGivesBackWhatWasPushedButNeverTaken() throws Exception {
        Path data = dir.resolve("data");
        RunningBroker broker = new RunningBroker(data);
        String uri = broker.uri();
        broker.store().createTaskQueue("jobs").enqueueBatch(tasks(3, 10));
        try (Mikyu client = Mikyu.dial(uri + "?streamCredit=10&streamIdle=1m&reconnect=20s")) {
            TaskQueue jobs = client.taskQueue("jobs");
            LeasedTask taken = jobs.dequeue(1, LEASE, WAIT, null).get(0);
            TaskQueue before = broker.store().taskQueue("jobs");
            awaitTrue(() -> before.counts().inFlight() == 3, "the other two pushed ahead");
            broker.close();
            broker = new RunningBroker(data, RunningBroker.ENGINE, o -> o, List.of(Endpoint.parse(uri)));
            TaskQueue after = broker.store().taskQueue("jobs");
            awaitTrue(() -> after.counts().ready() == 2, "the two never taken are ready again, long before their"
                    + " 60 s leases end");
            assertThat(after.counts().inFlight()).as("the taken one stays with the client").isEqualTo(1);
            jobs.ack(taken.token());
            assertThat(after.dequeue(10, LEASE, Duration.ZERO, null)).hasSize(2)
                    .extracting(LeasedTask::attempt).containsOnly(1);
        } finally {
            broker.close();
        }
    }

    @Test
    void aConsumerGivingBackItsPrefetchClosesTheIdleStreamOfItsQueueAtOnce() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(20, 10));
            TaskQueue jobs = broker.dial("?streamCredit=10&streamIdle=1m").taskQueue("jobs");
            List<LeasedTask> taken = jobs.dequeue(4, LEASE, WAIT, null);
            awaitTrue(() -> local.counts().inFlight() == taken.size() + 10, "ten pushed ahead");
            jobs.returnUndelivered(taken.stream().map(LeasedTask::token).toList());
            assertThat(local.counts().inFlight()).as("nothing leased once returnUndelivered returned").isZero();
            assertThat(local.counts().ready()).isEqualTo(20);
        }
    }

    @Test
    void aFilterIsEvaluatedOnTheBrokerAndOnlyMatchingTasksArePushed() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            List<Task> mixed = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                mixed.add(Task.of("t" + i).withHeaders(Headers.of("colour", i % 3 == 0 ? "red" : "blue")));
            }
            local.enqueueBatch(mixed);
            TaskQueue jobs = broker.dial("?streamCredit=8").taskQueue("jobs");
            List<LeasedTask> red = new ArrayList<>();
            while (red.size() < 20) {
                List<LeasedTask> got = jobs.dequeue(5, LEASE, WAIT, HeaderEquals.of("colour", "red"));
                assertThat(got).isNotEmpty();
                red.addAll(got);
                jobs.ack(got.stream().map(LeasedTask::token).toList());
                assertThat(local.counts().ready()).as("blue tasks are never leased").isGreaterThanOrEqualTo(40);
            }
            assertThat(red).extracting(LeasedTask::payloadAsString).doesNotHaveDuplicates()
                    .allMatch(p -> Integer.parseInt(p.substring(1)) % 3 == 0);
            assertThat(jobs.dequeue(5, LEASE, Duration.ofMillis(300), HeaderEquals.of("colour", "red"))).isEmpty();
            assertThat(local.counts().ready()).isEqualTo(40);
        }
    }

    @Test
    void aStalledConsumerDoesNotStallTheOthers() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(200, 10));
            TaskQueue stalled = broker.dial("?streamCredit=50").taskQueue("jobs");
            LeasedTask stuck = stalled.dequeue(1, LEASE, WAIT, null).get(0);
            awaitTrue(() -> local.counts().inFlight() >= 2, "the stalled consumer's stream filled");
            // It never asks again, nor acks. Another consumer gets everything else, its buffer included.
            TaskQueue busy = broker.dial().taskQueue("jobs");
            Set<Long> done = ConcurrentHashMap.newKeySet();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (done.size() < 199 && System.nanoTime() < deadline) {
                List<LeasedTask> got = busy.dequeue(20, LEASE, Duration.ofMillis(200), null);
                got.forEach(t -> done.add(t.id()));
                if (!got.isEmpty()) {
                    busy.ack(got.stream().map(LeasedTask::token).toList());
                }
            }
            assertThat(done).hasSize(199).doesNotContain(stuck.id());
            assertThat(local.counts().inFlight()).isEqualTo(1);
        }
    }

    @Test
    void leasesOfBufferedTasksAreRenewedWhileTheClientLives() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(10, 10));
            Duration shortLease = Duration.ofMillis(2_000);
            TaskQueue jobs = broker.dial("?streamCredit=5&streamIdle=1m").taskQueue("jobs");
            assertThat(jobs.dequeue(1, shortLease, WAIT, null)).hasSize(1);
            Thread.sleep(5_000);    // two and a half leases: the buffered ones would have expired
            List<LeasedTask> later = jobs.dequeue(5, shortLease, WAIT, null);
            assertThat(later).hasSize(5).extracting(LeasedTask::attempt).containsOnly(1);
            jobs.ack(later.stream().map(LeasedTask::token).toList());
        }
    }

    @Test
    void streamsComeBackAfterABrokerRestartAndNothingIsLost() throws Exception {
        Path data = dir.resolve("data");
        RunningBroker broker = new RunningBroker(data);
        String uri = broker.uri();
        int total = 60;
        broker.store().createTaskQueue("jobs").enqueueBatch(tasks(total, 10));
        Duration lease = Duration.ofSeconds(2);
        try (Mikyu client = Mikyu.dial(uri + "?reconnect=20s&streamCredit=8")) {
            TaskQueue jobs = client.taskQueue("jobs");
            Map<Long, Integer> attempts = new HashMap<>();
            List<LeasedTask> unacked = jobs.dequeue(5, lease, WAIT, null);
            assertThat(unacked).isNotEmpty();
            Set<Long> acked = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 3; i++) {
                List<LeasedTask> got = jobs.dequeue(5, lease, WAIT, null);
                jobs.ack(got.stream().map(LeasedTask::token).toList());
                got.forEach(t -> acked.add(t.id()));
            }
            broker.close();
            broker = new RunningBroker(data, RunningBroker.ENGINE, o -> o, List.of(Endpoint.parse(uri)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (acked.size() < total && System.nanoTime() < deadline) {
                List<LeasedTask> got = jobs.dequeue(10, lease, Duration.ofMillis(500), null);
                for (LeasedTask t : got) {
                    attempts.merge(t.id(), t.attempt(), Math::max);
                }
                if (!got.isEmpty()) {
                    jobs.ack(got.stream().map(LeasedTask::token).toList());
                    got.forEach(t -> acked.add(t.id()));
                }
            }
            assertThat(acked).as("every task acked, none lost").hasSize(total);
            for (LeasedTask t : unacked) {
                assertThat(attempts.get(t.id())).as("taken, never acked: delivered again, marked so")
                        .isGreaterThanOrEqualTo(2);
            }
            assertThat(client.isOpen()).isTrue();
        } finally {
            broker.close();
        }
    }

    @Test
    void sharedGroupMembersTakeFromAStreamAndReturnItsBufferWhenIdle() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            io.mikyu.engine.LogQueue log = broker.store().createLog("events");
            for (int i = 0; i < 30; i++) {
                log.append(io.mikyu.engine.Entry.of("e" + i));
            }
            Mikyu client = broker.dial("?streamCredit=6&streamIdle=300ms");
            io.mikyu.engine.SharedGroup group = client.log("events").sharedGroup("workers",
                    io.mikyu.engine.SharedGroupConfig.defaults());
            List<String> seen = new ArrayList<>();
            List<LeaseToken> tokens = new ArrayList<>();
            while (seen.size() < 12) {
                for (io.mikyu.engine.SharedGroup.Delivery d : group.fetch(4, LEASE, WAIT)) {
                    seen.add(d.record().payloadAsString());
                    tokens.add(d.token());
                    assertThat(d.deliveryCount()).isEqualTo(1);
                }
            }
            group.ack(tokens);
            assertThat(seen).doesNotHaveDuplicates().startsWith("e0", "e1", "e2");
            awaitTrue(() -> group.counts().inFlight() == 0, "the idle stream gave its buffer back");
            List<String> rest = new ArrayList<>();
            while (seen.size() + rest.size() < 30) {
                for (io.mikyu.engine.SharedGroup.Delivery d : group.fetch(10, LEASE, WAIT)) {
                    rest.add(d.record().payloadAsString());
                    assertThat(d.deliveryCount()).as("returned undelivered, not counted").isEqualTo(1);
                    group.ack(d.token());
                }
            }
            assertThat(rest).doesNotHaveDuplicates().doesNotContainAnyElementsOf(seen);
            assertThat(group.committedOffset()).isEqualTo(30);
        }
    }

    @Test
    void aStreamPushesADelayedTaskWhenItIsDue() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            TaskQueue jobs = broker.dial("?streamIdle=1m").taskQueue("jobs");
            assertThat(jobs.dequeue(1, LEASE, Duration.ofMillis(100), null)).isEmpty(); // the stream is open, idle
            long start = System.nanoTime();
            local.enqueue(Task.of("later").withDelay(Duration.ofMillis(400)));
            List<LeasedTask> got = jobs.dequeue(1, LEASE, WAIT, null);
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(got).hasSize(1);
            assertThat(waited).as("not before it is due, and soon after").isBetween(380L, 3_000L);
        }
    }

    @Test
    void aTaskWhoseLeaseRanOutIsPushedAgainAsItsNextAttempt() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            TaskQueue jobs = broker.dial("?streamIdle=1m").taskQueue("jobs");
            local.enqueue(Task.of("flaky"));
            LeasedTask first = jobs.dequeue(1, Duration.ofMillis(300), WAIT, null).get(0);
            assertThat(first.attempt()).isEqualTo(1);
            // not acked: when its lease ends the broker's stream of the same consumer gets it again
            LeasedTask again = jobs.dequeue(1, Duration.ofMillis(300), WAIT, null).get(0);
            assertThat(again.id()).isEqualTo(first.id());
            assertThat(again.attempt()).isEqualTo(2);
            jobs.ack(again.token());
            assertThat(local.counts().ready() + local.counts().inFlight()).isZero();
        }
    }

    @Test
    void idleStreamsHoldNoBrokerThread() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            Mikyu client = broker.dial("?streamIdle=1m");
            for (int i = 0; i < 20; i++) {
                broker.store().createTaskQueue("jobs-" + i);
                assertThat(client.taskQueue("jobs-" + i).dequeue(1, LEASE, Duration.ofMillis(20), null)).isEmpty();
            }
            Thread.sleep(300);
            // A thread held by a stream sits in a pump or in the engine's waiting dequeue; the stream timer and the
            // event loops pass through PushStream briefly (renewing, retrying an idle take), holding nothing.
            long waitingInATake = Thread.getAllStackTraces().values().stream()
                    .filter(stack -> java.util.Arrays.stream(stack)
                            .anyMatch(f -> f.getClassName().endsWith("PushStream") && f.getMethodName().equals("pump")
                                    || f.getClassName().endsWith("TaskQueueHandle")
                                    && f.getMethodName().equals("dequeue")))
                    .count();
            assertThat(waitingInATake).as("threads waiting for 20 idle streams").isZero();
            broker.store().taskQueue("jobs-7").enqueue(Task.of("wake"));
            assertThat(client.taskQueue("jobs-7").dequeue(1, LEASE, WAIT, null)).hasSize(1);
        }
    }

    @Test
    void deletingTheQueueEndsItsWaitingStreamWithAnError() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            broker.store().createTaskQueue("jobs");
            TaskQueue jobs = broker.dial("?streamIdle=1m").taskQueue("jobs");
            assertThat(jobs.dequeue(1, LEASE, Duration.ofMillis(50), null)).isEmpty();
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<List<LeasedTask>> waiting = pool.submit(() -> jobs.dequeue(1, LEASE, Duration.ofSeconds(30), null));
                Thread.sleep(200);
                long start = System.nanoTime();
                assertThat(broker.store().deleteTaskQueue("jobs")).isTrue();
                try {
                    List<LeasedTask> got = waiting.get(10, TimeUnit.SECONDS);
                    assertThat(got).as("nothing from a deleted queue").isEmpty();
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(io.mikyu.engine.MikyuException.class);
                }
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static List<Task> tasks(int n, int payloadBytes) {
        List<Task> tasks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tasks.add(Task.of(new byte[payloadBytes]));
        }
        return tasks;
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
