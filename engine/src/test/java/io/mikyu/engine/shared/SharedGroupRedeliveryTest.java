package io.mikyu.engine.shared;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.StaleLeaseException;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.mikyu.engine.shared.SharedTesting.BACKOFF;
import static io.mikyu.engine.shared.SharedTesting.LONG_LEASE;
import static io.mikyu.engine.shared.SharedTesting.config;
import static io.mikyu.engine.shared.SharedTesting.fill;
import static io.mikyu.engine.shared.SharedTesting.offsets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Nacks, ended leases, fencing and dead letters of a shared group. Leases, delays and backoffs run on a clock the
 * tests move: each is checked a millisecond before it ends and when it ends.
 */
@Timeout(60)
class SharedGroupRedeliveryTest {

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    /** What the group hands out now, without waiting. */
    private static List<SharedGroup.Delivery> fetchNow(SharedGroup g, int max, Duration lease)
            throws InterruptedException {
        return g.fetch(max, lease, Duration.ZERO);
    }

    private static Map<Long, SharedGroup.Delivery> byOffset(List<SharedGroup.Delivery> ds) {
        return ds.stream().collect(Collectors.toMap(d -> d.record().offset(), Function.identity()));
    }

    @Test
    void aNackWithADelayRedeliversOnlyThatRecordAfterTheDelayWithTheDeliveryCountRaised() throws Exception {
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 5);
            SharedGroup g = q.sharedGroup("g", config());
            Map<Long, SharedGroup.Delivery> first = byOffset(g.fetch(5, LONG_LEASE, Duration.ZERO));
            assertThat(first).hasSize(5);

            g.nack(first.get(1L).token(), Duration.ofMillis(300), "try later");
            g.nack(first.get(3L).token(), Duration.ofMillis(300), "try later");
            g.ack(first.get(0L).token());
            g.ack(first.get(2L).token());
            // offset 4 stays leased

            clock.advance(Duration.ofMillis(299));
            assertThat(fetchNow(g, 5, LONG_LEASE)).as("not before the delay").isEmpty();
            clock.advance(Duration.ofMillis(1));
            List<SharedGroup.Delivery> again = fetchNow(g, 5, LONG_LEASE);
            assertThat(offsets(again)).as("redelivered after the 300 ms delay").containsExactlyInAnyOrder(1L, 3L);
            assertThat(again).allSatisfy(d -> {
                assertThat(d.deliveryCount()).isEqualTo(2);
                assertThat(d.record().payloadAsString()).isEqualTo("r" + d.record().offset());
            });
            clock.advance(Duration.ofSeconds(1));
            assertThat(fetchNow(g, 5, LONG_LEASE)).as("nothing else comes back").isEmpty();
            assertThat(g.committedOffset()).isEqualTo(1);
        }
    }

    @Test
    void aNackWithoutDelayWaitsForTheBackoffWhichGrowsWithEachDelivery() throws Exception {
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 1);
            SharedGroup g = q.sharedGroup("g", config());
            SharedGroup.Delivery d = g.fetch(1, LONG_LEASE, Duration.ZERO).get(0);
            assertThat(d.deliveryCount()).isEqualTo(1);

            g.nack(d.token(), null, "boom");
            clock.advance(BACKOFF.minusMillis(1));
            assertThat(fetchNow(g, 1, LONG_LEASE)).as("backoff(1) = 100 ms").isEmpty();
            clock.advance(Duration.ofMillis(1));
            d = fetchNow(g, 1, LONG_LEASE).get(0);
            assertThat(d.deliveryCount()).isEqualTo(2);

            g.nack(d.token(), null, "boom");
            clock.advance(BACKOFF.multipliedBy(2).minusMillis(1));
            assertThat(fetchNow(g, 1, LONG_LEASE)).as("backoff(2) = 200 ms").isEmpty();
            clock.advance(Duration.ofMillis(1));
            d = fetchNow(g, 1, LONG_LEASE).get(0);
            assertThat(d.deliveryCount()).isEqualTo(3);
            assertThat(d.record().offset()).isZero();
        }
    }

    @Test
    void anEndedLeaseRedeliversOnlyTheExpiredRecords() throws Exception {
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 6);
            SharedGroup g = q.sharedGroup("g", config());
            List<SharedGroup.Delivery> shortOnes = g.fetch(3, Duration.ofMillis(300), Duration.ZERO);
            List<SharedGroup.Delivery> longOnes = g.fetch(3, LONG_LEASE, Duration.ZERO);
            assertThat(offsets(shortOnes)).containsExactly(0L, 1L, 2L);
            assertThat(offsets(longOnes)).containsExactly(3L, 4L, 5L);
            g.ack(shortOnes.get(1).token()); // finished before its lease ended

            clock.advance(Duration.ofMillis(299));
            assertThat(fetchNow(g, 6, LONG_LEASE)).as("leases still hold").isEmpty();
            clock.advance(BACKOFF); // the leases ended a millisecond later; then the backoff, less that millisecond
            assertThat(fetchNow(g, 6, LONG_LEASE)).as("backing off").isEmpty();
            clock.advance(Duration.ofMillis(1));
            List<SharedGroup.Delivery> again = fetchNow(g, 6, LONG_LEASE);
            assertThat(offsets(again)).containsExactlyInAnyOrder(0L, 2L);
            assertThat(again).allSatisfy(d -> assertThat(d.deliveryCount()).isEqualTo(2));
            clock.advance(Duration.ofSeconds(1));
            assertThat(fetchNow(g, 6, LONG_LEASE)).as("acked and long-leased stay away").isEmpty();
            assertThat(g.counts().inFlight()).isEqualTo(5);
        }
    }

    @Test
    void aLateHolderIsFencedOnceItsRecordWentToAnotherMember() throws Exception {
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 1);
            SharedGroup g = q.sharedGroup("g", config());
            SharedGroup.Delivery late = g.fetch(1, Duration.ofMillis(200), Duration.ZERO).get(0);
            clock.advance(Duration.ofMillis(200).plus(BACKOFF));
            SharedGroup.Delivery now = fetchNow(g, 1, LONG_LEASE).get(0);
            assertThat(now.record().offset()).isEqualTo(late.record().offset());
            assertThat(now.token()).isNotEqualTo(late.token());
            assertThat(now.deliveryCount()).isEqualTo(2);

            assertThatThrownBy(() -> g.ack(late.token())).isInstanceOf(StaleLeaseException.class);
            assertThatThrownBy(() -> g.ack(List.of(late.token()))).isInstanceOf(StaleLeaseException.class);
            assertThatThrownBy(() -> g.nack(late.token(), Duration.ZERO, "late"))
                    .isInstanceOf(StaleLeaseException.class);
            assertThatThrownBy(() -> g.extend(late.token(), LONG_LEASE)).isInstanceOf(StaleLeaseException.class);

            // the current holder is unaffected
            assertThat(g.extend(now.token(), LONG_LEASE)).isEqualTo(clock.steadyMillis() + LONG_LEASE.toMillis());
            g.ack(now.token());
            assertThat(g.committedOffset()).isEqualTo(1);
            assertThatThrownBy(() -> g.ack(now.token())).as("an acked record cannot be acked again")
                    .isInstanceOf(StaleLeaseException.class);
        }
    }

    @Test
    void aBatchAckWithOneStaleTokenAcksNothing() throws Exception {
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 2);
            SharedGroup g = q.sharedGroup("g", config());
            SharedGroup.Delivery late = g.fetch(1, Duration.ofMillis(200), Duration.ZERO).get(0);
            SharedGroup.Delivery other = g.fetch(1, LONG_LEASE, Duration.ZERO).get(0);
            clock.advance(Duration.ofMillis(200).plus(BACKOFF));
            assertThat(offsets(fetchNow(g, 1, LONG_LEASE))).as("record 0 again, to someone else").containsExactly(0L);
            assertThatThrownBy(() -> g.ack(List.of(other.token(), late.token())))
                    .isInstanceOf(StaleLeaseException.class);
            g.extend(other.token(), LONG_LEASE); // still held, so not acked
            assertThat(g.counts().inFlight()).isEqualTo(2);
        }
    }

    @Test
    void afterMaxAttemptsARecordGoesToTheGroupsDeadLetterQueueWithItsHeaders() throws Exception {
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            q.append(Entry.of("poison").withHeaders(Headers.of("type", "order")));
            q.append(Entry.of("fine"));
            SharedGroup g = q.sharedGroup("g", config(100, 3));

            for (int attempt = 1; attempt <= 3; attempt++) {
                List<SharedGroup.Delivery> ds = fetchNow(g, 1, LONG_LEASE); // a nack without delay: ready at once
                assertThat(ds).as("delivery %d", attempt).hasSize(1);
                SharedGroup.Delivery d = ds.get(0);
                assertThat(d.record().offset()).isZero();
                assertThat(d.deliveryCount()).isEqualTo(attempt);
                if (attempt == 1) {
                    SharedGroup.Delivery fine = g.fetch(1, LONG_LEASE, Duration.ZERO).get(0);
                    assertThat(fine.record().offset()).isEqualTo(1);
                    g.ack(fine.token());
                }
                g.nack(d.token(), Duration.ZERO, "cannot parse #" + attempt);
            }

            clock.advance(Duration.ofSeconds(1));
            assertThat(fetchNow(g, 5, LONG_LEASE)).as("no fourth delivery").isEmpty();
            assertThat(g.committedOffset()).as("a dead-lettered record is finished").isEqualTo(2);
            assertThat(g.counts().depth()).isZero();

            TaskQueue dlq = g.deadLetters();
            assertThat(dlq.name()).isEqualTo("events:g/dlq");
            assertThat(store.taskQueue("events:g/dlq").name()).isEqualTo(dlq.name());
            assertThat(store.list(QueueKind.TASK)).contains("events:g/dlq");
            LeasedTask dead = dlq.dequeue(Duration.ofSeconds(30)); // the move may still be under way
            assertThat(dead).isNotNull();
            assertThat(dead.payloadAsString()).isEqualTo("poison");
            assertThat(dead.headers().getString("type")).isEqualTo("order");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_QUEUE)).isEqualTo("events:g");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ORIGINAL_ID)).isEqualTo("0");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ATTEMPTS)).isEqualTo("3");
            assertThat(dead.headers().getString(TaskQueue.DLQ_REASON)).isEqualTo("cannot parse #3");
            dlq.ack(dead.token());
            assertThat(dlq.dequeue(Duration.ZERO)).as("only the poison record").isNull();
        }
        try (Mikyu store = open()) {
            assertThat(store.list(QueueKind.TASK)).as("the group's DLQ is registered after reopen")
                    .contains("events:g/dlq");
            assertThat(store.log("events").sharedGroup("g", config(100, 3)).committedOffset()).isEqualTo(2);
        }
    }

    @Test
    void aLeaseEndingForTheLastAllowedTimeDeadLettersTheRecord() throws Exception {
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            q.append(Entry.of("slow"));
            SharedGroup g = q.sharedGroup("g", config(100, 2));
            Duration lease = Duration.ofMillis(150);
            assertThat(g.fetch(1, lease, Duration.ZERO)).hasSize(1);
            clock.advance(lease.plus(BACKOFF));
            SharedGroup.Delivery second = fetchNow(g, 1, lease).get(0);
            assertThat(second.deliveryCount()).isEqualTo(2);

            // a member looking for work after the lease ended finds none: the record left for the DLQ
            clock.advance(lease);
            assertThat(fetchNow(g, 1, lease)).isEmpty();
            LeasedTask dead = g.deadLetters().dequeue(Duration.ofSeconds(30)); // the move may still be under way
            assertThat(dead).as("dead-lettered once the second lease ended").isNotNull();
            assertThat(dead.payloadAsString()).isEqualTo("slow");
            assertThat(dead.headers().getString(TaskQueue.DLQ_ATTEMPTS)).isEqualTo("2");
            assertThat(dead.headers().getString(TaskQueue.DLQ_REASON)).contains("lease expired");
            assertThat(g.committedOffset()).isEqualTo(1);
            assertThatThrownBy(() -> g.ack(second.token())).isInstanceOf(StaleLeaseException.class);
        }
    }
}
