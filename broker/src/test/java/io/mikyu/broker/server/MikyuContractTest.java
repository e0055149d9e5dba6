package io.mikyu.broker.server;

import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.ClaimedException;
import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.Durability;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.HeaderEquals;
import io.mikyu.engine.Headers;
import io.mikyu.engine.InvalidQueueNameException;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetOutOfRangeException;
import io.mikyu.engine.OffsetReset;
import io.mikyu.engine.QueueExistsException;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueNotFoundException;
import io.mikyu.engine.Record;
import io.mikyu.engine.RecordTooLargeException;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.StorageFullException;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.TransactionExistsException;
import io.mikyu.engine.TransactionNotFoundException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine's interface, specified once and run against {@code Mikyu.open(dir)} and {@code Mikyu.dial(uri)}:
 * whatever holds a {@link Mikyu} sees the same behaviour, results and exception types from both. Another module
 * runs it against its own backend by extending it with its own static {@code contractBackends()}.
 */
class MikyuContractTest {

    static Stream<ContractBackend> contractBackends() {
        return Stream.of(Backend.values());
    }

    private static final TaskQueueConfig QUICK_RETRY = TaskQueueConfig.defaults()
            .withBackoff(Duration.ZERO, 1.0, Duration.ZERO);

    @TempDir
    Path dir;

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void appendsAreReadBackByOffsetAndRange(ContractBackend backend) {
        try (ContractBackend.Store s = backend.open(dir)) {
            LogQueue events = s.mikyu().createLog("events", LogQueueConfig.defaults());
            assertThat(events.append(Entry.keyed("k", "first").withHeaders(Headers.of("type", "a")))).isZero();
            assertThat(events.appendBatch(List.of(Entry.of("second"), Entry.tombstone("k")), Durability.SYNC))
                    .isEqualTo(1);

            Record first = events.read(0);
            assertThat(first.keyAsString()).isEqualTo("k");
            assertThat(first.payloadAsString()).isEqualTo("first");
            assertThat(first.headers().getString("type")).isEqualTo("a");
            assertThat(events.read(2).isTombstone()).isTrue();
            assertThat(events.read(1, 10)).extracting(Record::offset).containsExactly(1L, 2L);
            assertThat(events.read(0, 10, 1)).hasSize(1);
            assertThat(events.startOffset()).isZero();
            assertThat(events.endOffset()).isEqualTo(3);
            assertThat(events.offsetForTimestamp(0)).isZero();
            assertThat(events.stats().endOffset()).isEqualTo(3);
            assertThat(events.name()).isEqualTo("events");
            assertThat(events.config().durability()).isEqualTo(Durability.ASYNC);
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void queuesAreCreatedListedAndDeleted(ContractBackend backend) {
        try (ContractBackend.Store s = backend.open(dir)) {
            Mikyu m = s.mikyu();
            m.createLog("b-log");
            m.getOrCreateLog("a-log", LogQueueConfig.defaults().withDurability(Durability.SYNC));
            m.createTaskQueue("jobs");
            assertThat(m.log("a-log").config().durability()).isEqualTo(Durability.SYNC);
            assertThat(m.list(QueueKind.LOG)).containsExactly("a-log", "b-log");
            assertThat(m.list(QueueKind.TASK)).contains("jobs", "jobs/dlq");
            assertThat(m.deleteLog("b-log")).isTrue();
            assertThat(m.deleteLog("b-log")).isFalse();
            assertThat(m.deleteTaskQueue("jobs")).isTrue();
            assertThat(m.list(QueueKind.TASK)).isEmpty();
            m.flush();
            assertThat(m.stats().logQueues()).isEqualTo(1);
            assertThat(m.recoveryReport().isClean()).isTrue();
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void aConsumerGroupCommitsResetsAndReportsLag(ContractBackend backend) throws Exception {
        try (ContractBackend.Store s = backend.open(dir)) {
            LogQueue events = s.mikyu().createLog("events");
            for (int i = 0; i < 5; i++) {
                events.append(Entry.of("e" + i));
            }
            ConsumerGroup billing = events.group("billing");
            assertThat(billing.hasCommitted()).isFalse();
            assertThat(billing.poll(2, Duration.ZERO)).extracting(Record::payloadAsString).containsExactly("e0", "e1");
            billing.commit(2);
            assertThat(billing.position()).isEqualTo(2);
            assertThat(billing.hasCommitted()).isTrue();
            assertThat(billing.lag()).isEqualTo(3);
            assertThat(billing.reset(OffsetReset.latest())).isEqualTo(5);
            assertThat(billing.reset(OffsetReset.toOffset(1))).isEqualTo(1);
            assertThat(events.groups()).containsExactly("billing");
            assertThat(events.deleteGroup("billing")).isTrue();
            assertThat(events.groups()).isEmpty();
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void aLongPollWaitsForTheNextAppend(ContractBackend backend) throws Exception {
        try (ContractBackend.Store s = backend.open(dir)) {
            LogQueue events = s.mikyu().createLog("events");
            try (BlockedCall<List<Record>> polled = BlockedCall.start(() -> events.poll(0, 10,
                    Duration.ofMinutes(10)))) {
                assertThat(polled.isDone()).as("waiting for a record").isFalse();
                events.append(Entry.of("late"));
                assertThat(polled.get(Duration.ofSeconds(30))).extracting(Record::payloadAsString)
                        .containsExactly("late");
            }

            List<String> seen = new ArrayList<>();
            long next = events.poll(0, 10, Duration.ZERO, r -> seen.add(StandardCharsets.UTF_8.decode(r.payload())
                    .toString()));
            assertThat(next).isEqualTo(1);
            assertThat(seen).containsExactly("late");
            long start = System.nanoTime();
            assertThat(events.poll(1, 10, Duration.ofMillis(150))).isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(140));
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void sharedGroupMembersLeaseAckAndRedeliver(ContractBackend backend) throws Exception {
        try (ContractBackend.Store s = backend.open(dir)) {
            LogQueue events = s.mikyu().createLog("events");
            events.appendBatch(List.of(Entry.of("a"), Entry.of("b"), Entry.of("c")));
            SharedGroup workers = events.sharedGroup("workers",
                    SharedGroupConfig.defaults().withRedelivery(QUICK_RETRY));
            List<SharedGroup.Delivery> batch = workers.fetch(2, Duration.ofSeconds(30), Duration.ofSeconds(1));
            assertThat(batch).extracting(d -> d.record().payloadAsString()).containsExactly("a", "b");
            assertThat(workers.counts().inFlight()).isEqualTo(backend.inFlight(2, 3));
            workers.ack(batch.get(0).token());
            assertThat(workers.extend(batch.get(1).token(), Duration.ofMinutes(1))).isGreaterThan(0);
            workers.nack(batch.get(1).token(), Duration.ZERO, "try again");
            // "c" may have come ahead of "b" (a stream pushes ahead), so fetch until "b" is back.
            List<SharedGroup.Delivery> again = new ArrayList<>();
            for (int i = 0; i < 5 && again.stream().noneMatch(d -> d.record().payloadAsString().equals("b")); i++) {
                again.addAll(workers.fetch(10, Duration.ofSeconds(30), Duration.ofSeconds(1)));
            }
            assertThat(again).extracting(d -> d.record().payloadAsString()).contains("b");
            assertThat(again).filteredOn(d -> d.record().payloadAsString().equals("b"))
                    .extracting(SharedGroup.Delivery::deliveryCount).containsExactly(2);
            workers.ack(again.stream().map(SharedGroup.Delivery::token).toList());
            assertThat(workers.committedOffset()).isEqualTo(3);
            assertThat(workers.lag()).isZero();
            assertThatThrownBy(() -> workers.ack(batch.get(0).token())).isInstanceOf(StaleLeaseException.class);
            assertThat(workers.deadLetters().name()).isEqualTo("events:workers/dlq");
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void tasksAreLeasedAckedNackedAndDeadLettered(ContractBackend backend) throws Exception {
        try (ContractBackend.Store s = backend.open(dir)) {
            TaskQueue jobs = s.mikyu().createTaskQueue("jobs", QUICK_RETRY.withMaxAttempts(2));
            assertThat(jobs.enqueue(Task.of("low").withPriority(1))).isZero();
            assertThat(jobs.enqueueBatch(List.of(Task.of("high").withPriority(9)), Durability.SYNC)).isEqualTo(1);
            assertThat(jobs.browse(10, null)).extracting(LeasedTask::payloadAsString).containsExactly("high", "low");

            LeasedTask high = jobs.dequeue(Duration.ofSeconds(1));
            assertThat(high.payloadAsString()).isEqualTo("high");
            assertThat(high.attempt()).isEqualTo(1);
            assertThat(jobs.counts().inFlight()).isEqualTo(backend.inFlight(1, 2));
            jobs.ack(high.token());
            assertThatThrownBy(() -> jobs.ack(high.token())).isInstanceOf(StaleLeaseException.class);

            LeasedTask low = jobs.dequeue(1, Duration.ofSeconds(30), Duration.ofSeconds(1), null).get(0);
            assertThat(jobs.extend(low.token(), Duration.ofMinutes(1))).isGreaterThan(System.currentTimeMillis());
            jobs.nack(low.token(), Duration.ZERO, "first failure");
            LeasedTask retried = jobs.dequeue(Duration.ofSeconds(2));
            assertThat(retried.attempt()).isEqualTo(2);
            jobs.nack(retried.token(), null, "last failure");

            LeasedTask dead = jobs.deadLetters().dequeue(Duration.ofSeconds(2));
            assertThat(dead.payloadAsString()).isEqualTo("low");
            assertThat(dead.headers().getString(TaskQueue.DLQ_REASON)).isEqualTo("last failure");
            assertThat(jobs.deadLetters().deadLetters()).isNull();

            jobs.enqueue(Task.of("x").withDelay(Duration.ofHours(1)));
            assertThat(jobs.counts().scheduled()).isEqualTo(1);
            assertThat(jobs.purge()).isEqualTo(1);
            assertThat(jobs.stats().name()).isEqualTo("jobs");
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void undeliveredLeasesGoBackWithoutCountingAsAttempts(ContractBackend backend) throws Exception {
        try (ContractBackend.Store s = backend.open(dir)) {
            TaskQueue jobs = s.mikyu().createTaskQueue("jobs");
            jobs.enqueueBatch(List.of(Task.of("a"), Task.of("b")));
            List<LeasedTask> prefetched = jobs.dequeue(2, Duration.ofMinutes(5), Duration.ZERO, null);
            jobs.returnUndelivered(prefetched.stream().map(LeasedTask::token).toList());
            jobs.returnUndelivered(List.of());
            List<LeasedTask> again = jobs.dequeue(2, Duration.ofMinutes(5), Duration.ZERO, null);
            assertThat(again).extracting(LeasedTask::payloadAsString).containsExactly("a", "b");
            assertThat(again).extracting(LeasedTask::attempt).containsExactly(1, 1);
            assertThatThrownBy(() -> jobs.returnUndelivered(List.of(prefetched.get(0).token())))
                    .isInstanceOf(StaleLeaseException.class);

            LogQueue events = s.mikyu().createLog("events");
            SharedGroup workers = events.sharedGroup("workers", SharedGroupConfig.defaults());
            events.append(Entry.of("x"));
            List<SharedGroup.Delivery> d = workers.fetch(10, Duration.ofMinutes(5), Duration.ofSeconds(1));
            workers.returnUndelivered(d.stream().map(SharedGroup.Delivery::token).toList());
            List<SharedGroup.Delivery> redelivered = workers.fetch(10, Duration.ofMinutes(5), Duration.ofSeconds(1));
            assertThat(redelivered).extracting(SharedGroup.Delivery::deliveryCount).containsExactly(1);
            assertThatThrownBy(() -> workers.returnUndelivered(List.of(d.get(0).token())))
                    .isInstanceOf(StaleLeaseException.class);
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void aNewSharedGroupStartsWhereItsCreatorSays(ContractBackend backend) throws Exception {
        try (ContractBackend.Store s = backend.open(dir)) {
            LogQueue events = s.mikyu().createLog("events");
            events.append(Entry.of("before"));
            SharedGroup latest = events.sharedGroup("latest", SharedGroupConfig.defaults(), null,
                    OffsetReset.latest());
            SharedGroup filtered = events.sharedGroup("filtered", SharedGroupConfig.defaults(),
                    HeaderEquals.of("type", "b"), OffsetReset.toOffset(0));
            events.append(Entry.of("after"));
            events.append(Entry.of("typed").withHeaders(Headers.of("type", "b")));
            assertThat(latest.fetch(10, Duration.ofSeconds(30), Duration.ofSeconds(1)))
                    .extracting(d -> d.record().payloadAsString()).containsExactly("after", "typed");
            assertThat(filtered.fetch(10, Duration.ofSeconds(30), Duration.ofSeconds(1)))
                    .extracting(d -> d.record().payloadAsString()).containsExactly("typed");
            SharedGroup existing = events.sharedGroup("latest", SharedGroupConfig.defaults(), null,
                    OffsetReset.latest());
            assertThat(existing.counts().inFlight()).as("an existing group keeps its place").isEqualTo(2);
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void aFilteredDequeueTakesOnlyMatchingTasks(ContractBackend backend) throws Exception {
        try (ContractBackend.Store s = backend.open(dir)) {
            TaskQueue jobs = s.mikyu().createTaskQueue("jobs");
            jobs.enqueue(Task.of("us").withHeaders(Headers.of("region", "us")));
            jobs.enqueue(Task.of("eu").withHeaders(Headers.of("region", "eu")));
            HeaderEquals eu = HeaderEquals.of("region", "eu");
            assertThat(jobs.browse(10, eu)).extracting(LeasedTask::payloadAsString).containsExactly("eu");
            List<LeasedTask> taken = jobs.dequeue(10, Duration.ofSeconds(30), Duration.ofMillis(100), eu);
            assertThat(taken).extracting(LeasedTask::payloadAsString).containsExactly("eu");
            assertThat(jobs.counts().ready()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void aTransactionCommitsAcrossQueuesOrNotAtAll(ContractBackend backend) throws Exception {
        try (ContractBackend.Store s = backend.open(dir)) {
            Mikyu m = s.mikyu();
            LogQueue events = m.createLog("events");
            TaskQueue jobs = m.createTaskQueue("jobs");
            TaskQueue results = m.createTaskQueue("results");
            jobs.enqueue(Task.of("job"));
            LeasedTask job = jobs.dequeue(Duration.ofSeconds(1));
            events.append(Entry.of("before"));

            try (Transaction tx = m.beginTransaction()) {
                tx.append("events", Entry.of("rolled back")).enqueue("results", Task.of("rolled back"));
                assertThat(tx.size()).isEqualTo(2);
                tx.rollback();
            }
            assertThat(events.endOffset()).isEqualTo(1);

            try (Transaction tx = m.beginTransaction()) {
                tx.ack("jobs", job.token()).enqueue("results", Task.of("done")).append("events", Entry.of("finished"))
                        .commitOffset("events", "audit", 1);
                tx.commit();
            }
            assertThat(events.read(1).payloadAsString()).isEqualTo("finished");
            assertThat(results.counts().ready()).isEqualTo(1);
            assertThat(jobs.counts().depth()).isZero();
            assertThat(events.group("audit").position()).isEqualTo(1);

            try (Transaction tx = m.beginTransaction()) {
                tx.ack("jobs", job.token());
                assertThatThrownBy(tx::commit).isInstanceOf(StaleLeaseException.class);
            }
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void aPreparedTransactionWaitsForItsDecision(ContractBackend backend) {
        try (ContractBackend.Store s = backend.open(dir)) {
            Mikyu m = s.mikyu();
            LogQueue events = m.createLog("events");
            byte[] commitMe = {1, 2, 3};
            byte[] rollMeBack = {4, 5};
            try (Transaction tx = m.beginTransaction()) {
                tx.append("events", Entry.of("two-phase"));
                tx.prepare(commitMe);
            }
            try (Transaction tx = m.beginTransaction()) {
                tx.append("events", Entry.of("never"));
                tx.prepare(rollMeBack);
            }
            assertThat(m.preparedTransactions()).containsExactlyInAnyOrder(commitMe, rollMeBack);
            assertThat(events.endOffset()).isZero();
            m.commitPrepared(commitMe);
            m.rollbackPrepared(rollMeBack);
            assertThat(m.preparedTransactions()).isEmpty();
            assertThat(events.read(0, 10)).extracting(Record::payloadAsString).containsExactly("two-phase");
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void anInDoubtTransactionIsDescribedAndDecidedOnce(ContractBackend backend) throws Exception {
        try (ContractBackend.Store s = backend.open(dir)) {
            Mikyu m = s.mikyu();
            m.createLog("events");
            TaskQueue jobs = m.createTaskQueue("jobs");
            jobs.enqueue(Task.of("job"));
            LeasedTask job = jobs.dequeue(Duration.ofSeconds(5));
            byte[] xid = {7, 7, 7};
            assertThat(m.inDoubtTransactions()).isEmpty();
            java.time.Instant before = java.time.Instant.now();
            try (Transaction tx = m.beginTransaction()) {
                tx.append("events", Entry.of("later")).ack("jobs", job.token()).enqueue("jobs", Task.of("next"));
                tx.prepare(xid);
            }
            java.time.Instant after = java.time.Instant.now();

            assertThat(m.inDoubtTransactions()).singleElement().satisfies(p -> {
                assertThat(p.xid()).isEqualTo(xid);
                assertThat(p.owner()).isNull();
                assertThat(p.queues()).containsExactly("events", "jobs");
                assertThat(p.preparedAt()).isBetween(before.minusMillis(1), after.plusMillis(1));
            });
            try (Transaction tx = m.beginTransaction()) {
                tx.append("events", Entry.of("clash"));
                assertThatThrownBy(() -> tx.prepare(xid)).isInstanceOf(TransactionExistsException.class);
            }
            m.commitPrepared(xid);
            assertThat(m.inDoubtTransactions()).isEmpty();
            assertThat(m.log("events").endOffset()).isEqualTo(1);
            assertThatThrownBy(() -> m.commitPrepared(xid)).isInstanceOf(TransactionNotFoundException.class);
            assertThatThrownBy(() -> m.rollbackPrepared(xid)).isInstanceOf(TransactionNotFoundException.class);
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void theStoreTellsAStableId(ContractBackend backend) {
        try (ContractBackend.Store s = backend.open(dir)) {
            String id = s.mikyu().storeId();
            assertThat(java.util.UUID.fromString(id).toString()).isEqualTo(id);
            assertThat(s.mikyu().storeId()).isEqualTo(id);
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void failuresArriveAsTheEngineExceptionTypes(ContractBackend backend) {
        try (ContractBackend.Store s = backend.open(dir)) {
            Mikyu m = s.mikyu();
            LogQueue events = m.createLog("events");
            assertThatThrownBy(() -> m.log("missing")).isInstanceOf(QueueNotFoundException.class)
                    .hasMessageContaining("missing");
            assertThatThrownBy(() -> m.createLog("events")).isInstanceOf(QueueExistsException.class);
            assertThatThrownBy(() -> m.createLog("no spaces")).isInstanceOf(InvalidQueueNameException.class);
            assertThatThrownBy(() -> events.read(7)).isInstanceOf(OffsetOutOfRangeException.class);
            assertThatThrownBy(() -> events.append(Entry.of(new byte[300 << 10])))
                    .isInstanceOf(RecordTooLargeException.class);
            assertThatThrownBy(() -> events.poll(0, 0, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
            events.sharedGroup("shared", SharedGroupConfig.defaults());
            assertThatThrownBy(() -> events.group("shared")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> m.commitPrepared(new byte[] {9})).isInstanceOf(
                    TransactionNotFoundException.class);
            TaskQueue jobs = m.createTaskQueue("jobs");
            assertThatThrownBy(() -> jobs.ack(new io.mikyu.engine.LeaseToken(0, 1)))
                    .isInstanceOf(StaleLeaseException.class);
            String messageHere = catchMessage(() -> m.log("missing"));
            assertThat(messageHere).contains("missing");
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void aFullDiskRefusesAppendsAsStorageFull(ContractBackend backend) {
        EngineConfig noRoom = EngineConfig.builder().minFreeDiskBytes(Long.MAX_VALUE / 2).build();
        try (ContractBackend.Store s = backend.open(dir, noRoom)) {
            LogQueue events = s.mikyu().createLog("events");
            assertThatThrownBy(() -> events.append(Entry.of("x"))).isInstanceOf(StorageFullException.class)
                    .hasMessageContaining(dir.toString());
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void aClosedStoreRefusesCallsAsClosed(ContractBackend backend) {
        try (ContractBackend.Store s = backend.open(dir)) {
            LogQueue events = s.mikyu().createLog("events");
            assertThat(s.mikyu().isOpen()).isTrue();
            s.mikyu().close();
            assertThat(s.mikyu().isOpen()).isFalse();
            assertThatThrownBy(() -> events.append(Entry.of("x"))).isInstanceOf(StoreClosedException.class);
            assertThatThrownBy(() -> s.mikyu().list(QueueKind.LOG)).isInstanceOf(StoreClosedException.class);
        }
    }

    private static String catchMessage(Runnable r) {
        try {
            r.run();
            return null;
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void anExclusiveClaimIsRefusedWhileHeldAndFreeOnceReleased(ContractBackend backend) {
        try (ContractBackend.Store s = backend.open(dir)) {
            Claim first = s.mikyu().claim("client-7", ClaimMode.EXCLUSIVE);
            assertThatThrownBy(() -> s.mikyu().claim("client-7", ClaimMode.EXCLUSIVE))
                    .isInstanceOf(ClaimedException.class).hasMessageContaining("client-7");
            assertThatThrownBy(() -> s.mikyu().claim("client-7", ClaimMode.SHARED))
                    .isInstanceOf(ClaimedException.class);
            assertThat(s.mikyu().claimHolders("client-7")).isEqualTo(1);
            assertThat(first.release()).isZero();
            assertThat(first.release()).as("releasing twice").isZero();
            s.mikyu().claim("client-7", ClaimMode.EXCLUSIVE).close();
            assertThat(s.mikyu().claimHolders("client-7")).isZero();
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void sharedClaimsAreCountedAndKeepExclusiveOnesOut(ContractBackend backend) {
        try (ContractBackend.Store s = backend.open(dir)) {
            Claim a = s.mikyu().claim("subscription", ClaimMode.SHARED);
            Claim b = s.mikyu().claim("subscription", ClaimMode.SHARED);
            assertThat(s.mikyu().claimHolders("subscription")).isEqualTo(2);
            assertThatThrownBy(() -> s.mikyu().claim("subscription", ClaimMode.EXCLUSIVE))
                    .isInstanceOf(ClaimedException.class);
            assertThat(a.release()).isEqualTo(1);
            assertThat(b.release()).as("the last holder leaves").isZero();
            s.mikyu().claim("subscription", ClaimMode.EXCLUSIVE).close();
        }
    }

    @ParameterizedTest
    @ArgumentsSource(ContractBackends.class)
    void aGroupIsDeletedUnlessItsClaimIsHeld(ContractBackend backend) {
        try (ContractBackend.Store s = backend.open(dir)) {
            LogQueue log = s.mikyu().createLog("prices");
            log.sharedGroup("ticker", SharedGroupConfig.defaults());
            Claim member = s.mikyu().claim("members/ticker", ClaimMode.SHARED);
            assertThat(s.mikyu().deleteGroupUnlessClaimed("prices", "ticker", "members/ticker")).isFalse();
            assertThat(log.groups()).containsExactly("ticker");
            member.release();
            assertThat(s.mikyu().deleteGroupUnlessClaimed("prices", "ticker", "members/ticker")).isTrue();
            assertThat(log.groups()).isEmpty();
            assertThat(s.mikyu().deleteGroupUnlessClaimed("prices", "ticker", "members/ticker"))
                    .as("no such group").isFalse();
            assertThatThrownBy(() -> s.mikyu().deleteGroupUnlessClaimed("nowhere", "ticker", "members/ticker"))
                    .isInstanceOf(QueueNotFoundException.class);
        }
    }
}
