package io.mikyu.broker.server;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.GroupMember;
import io.mikyu.engine.HeaderEquals;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.transport.Endpoint;
import org.awaitility.core.ThrowingRunnable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Consumer streams: a dialled client's waiting dequeues take what the broker pushed under the client's credit
 * ({@code docs/protocol.md}, "Consumer streams"). A real broker on a loopback port, real files.
 */
class ConsumerStreamTest {

    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration AT_MOST = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** The store's clock, for the tests that let leases, delays and idle periods run out: it moves when told. */
    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    /** A broker whose store (leases, backoffs, delays) and stream timer run on {@link #clock}. */
    private RunningBroker brokerOnTheTestClock() {
        return new RunningBroker(dir, RunningBroker.ENGINE.toBuilder().timeSource(clock).build(), o -> o);
    }

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
                // Watched while the broker pushes for the credit the take gave: never more than it ahead.
                staysSo(Duration.ofMillis(10), () -> assertThat(local.counts().inFlight())
                        .isLessThanOrEqualTo(taken + 5));
            }
            await("the credit filled").atMost(AT_MOST).until(() -> local.counts().inFlight() == held.size() + 5);
            staysSo(Duration.ofMillis(200), () -> assertThat(local.counts().inFlight()).as("the credit filled")
                    .isEqualTo(held.size() + 5));
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
                int taken = held.size();
                staysSo(Duration.ofMillis(20), () -> assertThat(local.counts().inFlight())
                        .isLessThanOrEqualTo(taken + 3));
            }
            await("the byte credit filled").atMost(AT_MOST).until(() -> local.counts().inFlight() == held.size() + 3);
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
        anIdleStreamGivesItsBufferedTasksBack(null);
    }

    @Test
    void anIdleStreamOfAMemberThatTookNoGroupedTaskStillGivesItsBufferBack() throws Exception {
        GroupMember member = new GroupMember("a");
        anIdleStreamGivesItsBufferedTasksBack(member.take(null));
        member.close();
    }

    private void anIdleStreamGivesItsBufferedTasksBack(TaskFilter filter) throws Exception {
        try (RunningBroker broker = brokerOnTheTestClock()) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(20, 10));
            TaskQueue jobs = broker.dial("?streamCredit=10&streamIdle=300ms").taskQueue("jobs");
            LeasedTask taken = jobs.dequeue(1, LEASE, WAIT, filter).get(0);
            await("ten pushed ahead").atMost(AT_MOST).until(() -> local.counts().inFlight() == 11);
            // The store's clock stands still: no lease can end, so only the idle stream can give them back.
            await("the idle stream closed").atMost(AT_MOST).until(() -> local.counts().inFlight() == 1);
            List<LeasedTask> rest = local.dequeue(100, LEASE, Duration.ZERO, null);
            assertThat(rest).hasSize(19).extracting(LeasedTask::attempt).containsOnly(1);
            assertThat(rest).extracting(LeasedTask::id).doesNotContain(taken.id());
        }
    }

    /**
     * On the broker a message-group member is its stream: closing the stream of an open member for being idle gave
     * its groups to other consumers. A JMS listener busy with one message takes nothing from its stream meanwhile;
     * if that message's lease ended (renewals behind on a loaded machine), its next copy went to another consumer,
     * flagged, while the first still handed the old copy out, unflagged, after it (GroupConsumerKillTest).
     */
    @Test
    void anIdleStreamOfAnOpenGroupMemberStaysOpenAndItsGroupStaysWithIt() throws Exception {
        try (RunningBroker broker = brokerOnTheTestClock()) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(List.of(grouped("g", 1), grouped("g", 2)));
            TaskQueue a = broker.dial("?streamIdle=300ms").taskQueue("jobs");
            TaskQueue b = broker.dial("?streamIdle=300ms").taskQueue("jobs");
            GroupMember memberA = new GroupMember("a");
            GroupMember memberB = new GroupMember("b");
            LeasedTask first = a.dequeue(1, LEASE, WAIT, memberA.take(null)).get(0);
            assertThat(first.headers().getString(GroupMember.GROUP_SEQ)).isEqualTo("1");
            await("g:2 pushed to a's stream").atMost(AT_MOST).pollInterval(Duration.ofMillis(1))
                    .until(() -> local.counts().inFlight() == 2);
            // a takes nothing for longer than streamIdle, as a listener busy with g:1 does: g:2 stays a's
            staysSo(Duration.ofMillis(1_500), () -> assertThat(local.counts().inFlight()).isEqualTo(2));
            a.ack(first.token());
            assertThat(b.dequeue(1, LEASE, Duration.ofMillis(500), memberB.take(null)))
                    .as("g is a's while a is open").isEmpty();
            LeasedTask second = a.dequeue(1, LEASE, WAIT, memberA.take(null)).get(0);
            assertThat(second.headers().getString(GroupMember.GROUP_SEQ)).isEqualTo("2");
            assertThat(second.attempt()).isEqualTo(1);
            a.ack(second.token());
            memberA.close();
            memberB.close();
        }
    }

    @Test
    void closingTheConnectionGivesTheBufferedTasksBackButNotTheTakenOnes() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(20, 10));
            Mikyu client = Mikyu.dial(broker.uri() + "?streamCredit=10&streamIdle=1m");
            List<LeasedTask> taken = client.taskQueue("jobs").dequeue(2, LEASE, WAIT, null);
            await("ten pushed ahead").atMost(AT_MOST).until(() -> local.counts().inFlight() == taken.size() + 10);
            client.close();
            await("the buffered ones came back").atMost(AT_MOST).until(() -> local.counts().inFlight() == taken.size());
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
            await("the other two pushed ahead; the pump waits for more").atMost(AT_MOST)
                    .until(() -> local.counts().inFlight() == 3);
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
        EngineConfig onTheTestClock = RunningBroker.ENGINE.toBuilder().timeSource(clock).build();
        RunningBroker broker = new RunningBroker(data, onTheTestClock, o -> o);
        String uri = broker.uri();
        broker.store().createTaskQueue("jobs").enqueueBatch(tasks(3, 10));
        try (Mikyu client = Mikyu.dial(uri + "?streamCredit=10&streamIdle=1m&reconnect=20s")) {
            TaskQueue jobs = client.taskQueue("jobs");
            LeasedTask taken = jobs.dequeue(1, LEASE, WAIT, null).get(0);
            TaskQueue before = broker.store().taskQueue("jobs");
            await("the other two pushed ahead").atMost(AT_MOST).until(() -> before.counts().inFlight() == 3);
            broker.close();
            broker = new RunningBroker(data, onTheTestClock, o -> o, List.of(Endpoint.parse(uri)));
            TaskQueue after = broker.store().taskQueue("jobs");
            // The store's clock stands still: their leases cannot end, only the client can give them back.
            await("the two never taken are ready again").atMost(AT_MOST).until(() -> after.counts().ready() == 2);
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
            await("ten pushed ahead").atMost(AT_MOST).until(() -> local.counts().inFlight() == taken.size() + 10);
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
            await("the stalled consumer's stream filled").atMost(AT_MOST).until(() -> local.counts().inFlight() >= 2);
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
        try (RunningBroker broker = brokerOnTheTestClock()) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            local.enqueueBatch(tasks(10, 10));
            Duration shortLease = Duration.ofMillis(2_000);
            TaskQueue jobs = broker.dial("?streamCredit=5&streamIdle=1m").taskQueue("jobs");
            assertThat(jobs.dequeue(1, shortLease, WAIT, null)).hasSize(1);
            await("five pushed ahead").atMost(AT_MOST).until(() -> local.counts().inFlight() == 6);
            // Two and a half leases pass, half a lease at a time, each followed by a round of the stream timer:
            // the buffered ones would have expired.
            for (int round = 0; round < 5; round++) {
                clock.advance(shortLease.dividedBy(2).plusMillis(1));
                broker.server().tickStreamsNow();
            }
            assertThat(local.counts().inFlight()).as("the five buffered, still leased").isEqualTo(5);
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
            await("the idle stream gave its buffer back").atMost(AT_MOST).until(() -> group.counts().inFlight() == 0);
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
        try (RunningBroker broker = brokerOnTheTestClock()) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            TaskQueue jobs = broker.dial("?streamIdle=1m").taskQueue("jobs");
            assertThat(jobs.dequeue(1, LEASE, Duration.ofMillis(100), null)).isEmpty(); // the stream is open, idle
            Duration delay = Duration.ofSeconds(10);
            local.enqueue(Task.of("later").deliverAt(Instant.ofEpochMilli(clock.wallMillis() + delay.toMillis())));
            clock.advance(delay.minusMillis(1));
            assertThat(jobs.dequeue(1, LEASE, Duration.ofMillis(300), null)).as("not before it is due").isEmpty();
            clock.advance(Duration.ofMillis(1));
            assertThat(jobs.dequeue(1, LEASE, Duration.ofSeconds(30), null)).as("pushed once due")
                    .extracting(LeasedTask::payloadAsString).containsExactly("later");
        }
    }

    @Test
    void aTaskWhoseLeaseRanOutIsPushedAgainAsItsNextAttempt() throws Exception {
        try (RunningBroker broker = brokerOnTheTestClock()) {
            TaskQueue local = broker.store().createTaskQueue("jobs");
            TaskQueue jobs = broker.dial("?streamIdle=1m").taskQueue("jobs");
            local.enqueue(Task.of("flaky"));
            Duration lease = Duration.ofMillis(300);
            LeasedTask first = jobs.dequeue(1, lease, WAIT, null).get(0);
            assertThat(first.attempt()).isEqualTo(1);
            // not acked: when its lease ends (and the queue's 1 s backoff after it) the broker's stream of the same
            // consumer gets it again
            clock.advance(lease.plusSeconds(1).minusMillis(1));
            assertThat(jobs.dequeue(1, lease, Duration.ofMillis(300), null)).as("still leased, then backing off")
                    .isEmpty();
            clock.advance(Duration.ofMillis(1));
            LeasedTask again = jobs.dequeue(1, lease, Duration.ofSeconds(30), null).get(0);
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
            // A thread held by a stream sits in a pump or in the engine's waiting dequeue; the stream timer and the
            // event loops pass through PushStream briefly (renewing, retrying an idle take), holding nothing.
            await("no thread waiting for 20 idle streams").atMost(AT_MOST)
                    .until(() -> Thread.getAllStackTraces().values().stream()
                            .filter(stack -> java.util.Arrays.stream(stack)
                                    .anyMatch(f -> f.getClassName().endsWith("PushStream")
                                            && f.getMethodName().equals("pump")
                                            || f.getClassName().endsWith("TaskQueueHandle")
                                            && f.getMethodName().equals("dequeue")))
                            .count() == 0);
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
            // Waiting up to ten minutes: it returns long before, when the queue goes.
            try (BlockedCall<List<LeasedTask>> waiting = BlockedCall.start(
                    () -> jobs.dequeue(1, LEASE, Duration.ofMinutes(10), null))) {
                assertThat(broker.store().deleteTaskQueue("jobs")).isTrue();
                try {
                    List<LeasedTask> got = waiting.get(Duration.ofSeconds(60));
                    assertThat(got).as("nothing from a deleted queue").isEmpty();
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(io.mikyu.engine.MikyuException.class);
                }
            }
        }
    }

    private static Task grouped(String group, int seq) {
        return Task.of(group + ":" + seq).withHeaders(Headers.of(GroupMember.GROUP, group, GroupMember.GROUP_SEQ,
                Integer.toString(seq)));
    }

    private static List<Task> tasks(int n, int payloadBytes) {
        List<Task> tasks = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tasks.add(Task.of(new byte[payloadBytes]));
        }
        return tasks;
    }

    /**
     * Checks {@code assertion} again and again for {@code period}: what the broker does meanwhile must never break
     * it (a stream that went past its credit stays past it, so a breach is still there at the next look).
     */
    private static void staysSo(Duration period, ThrowingRunnable assertion) {
        await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).during(period)
                .atMost(period.plusSeconds(30)).untilAsserted(assertion);
    }
}
