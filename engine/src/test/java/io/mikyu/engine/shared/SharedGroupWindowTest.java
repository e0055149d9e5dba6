package io.mikyu.engine.shared;

import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.support.BackgroundCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.mikyu.engine.shared.SharedTesting.LONG_LEASE;
import static io.mikyu.engine.shared.SharedTesting.config;
import static io.mikyu.engine.shared.SharedTesting.fill;
import static io.mikyu.engine.shared.SharedTesting.offsets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bounded in-flight window, the committed offset, group names, and long polls. */
@Timeout(30)
class SharedGroupWindowTest {

    /** Longer than the class's timeout: a fetch that returns did not do so because its wait ended. */
    private static final Duration LONG_WAIT = Duration.ofMinutes(10);

    @TempDir
    Path data;

    @Test
    void fetchNeverHandsOutMoreUnfinishedRecordsThanMaxInFlight() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 50);
            SharedGroup g = q.sharedGroup("g", config(10, 10));

            List<SharedGroup.Delivery> first = g.fetch(100, LONG_LEASE, Duration.ZERO);
            assertThat(offsets(first)).as("the first window").containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            assertThat(g.fetch(100, LONG_LEASE, Duration.ofMillis(200))).as("the window is full").isEmpty();
            assertThat(g.counts()).isEqualTo(new TaskCounts(0, 0, 10));

            // a nacked record is still unfinished: it keeps its place in the window
            g.nack(first.get(5).token(), Duration.ofSeconds(30), "later");
            assertThat(g.fetch(100, LONG_LEASE, Duration.ofMillis(150))).isEmpty();
            assertThat(g.counts()).isEqualTo(new TaskCounts(0, 1, 9));

            // the window spans from the lowest unfinished record: acking inside it makes no room ...
            g.ack(first.get(7).token());
            assertThat(g.fetch(100, LONG_LEASE, Duration.ofMillis(100))).isEmpty();
            // ... acking the lowest record makes room for exactly one more
            g.ack(first.get(0).token());
            List<SharedGroup.Delivery> one = g.fetch(100, LONG_LEASE, Duration.ZERO);
            assertThat(offsets(one)).containsExactly(10L);
            g.ack(List.of(first.get(1).token(), first.get(2).token()));
            assertThat(offsets(g.fetch(100, LONG_LEASE, Duration.ZERO))).containsExactly(11L, 12L);
            assertThat(g.fetch(100, LONG_LEASE, Duration.ofMillis(100))).isEmpty();
            assertThat(g.counts().depth()).as("3..12 but 7").isEqualTo(9);
        }
    }

    @Test
    void theCommittedOffsetIsTheLowestUnfinishedRecord() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 6);
            SharedGroup g = q.sharedGroup("g", config(100, 10));
            assertThat(g.committedOffset()).isZero();
            assertThat(g.lag()).isEqualTo(6);
            List<SharedGroup.Delivery> ds = g.fetch(6, LONG_LEASE, Duration.ZERO);

            g.ack(ds.get(3).token());
            g.ack(ds.get(1).token());
            assertThat(g.committedOffset()).as("0 is still unacked").isZero();
            g.ack(ds.get(0).token());
            assertThat(g.committedOffset()).as("0, 1 acked; 2 is not").isEqualTo(2);
            g.ack(ds.get(2).token());
            assertThat(g.committedOffset()).as("0-3 acked; 4 is not").isEqualTo(4);
            assertThat(g.lag()).isEqualTo(2);
            g.nack(ds.get(4).token(), Duration.ofSeconds(30), "later");
            assertThat(g.committedOffset()).as("a nacked record is not finished").isEqualTo(4);
            g.ack(ds.get(5).token());
            assertThat(g.committedOffset()).isEqualTo(4);
        }
    }

    @Test
    void theCommittedOffsetNeverExceedsTheRecordsNotYetFetched() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            SharedGroup g = q.sharedGroup("g", config(100, 10));
            fill(q, 0, 3);
            assertThat(g.committedOffset()).as("records appended but never fetched are not finished").isZero();
            List<SharedGroup.Delivery> ds = g.fetch(1, LONG_LEASE, Duration.ZERO);
            g.ack(ds.get(0).token());
            assertThat(g.committedOffset()).isEqualTo(1);
            assertThat(g.lag()).isEqualTo(2);
        }
    }

    /**
     * {@link io.mikyu.engine.SharedGroupConfig}: maxInFlight is the number of records "between its committed offset
     * and the furthest record fetched", which "bounds ... how far members run ahead of a stuck record".
     */
    @Test
    void membersDoNotRunMoreThanMaxInFlightRecordsAheadOfAStuckRecord() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 40);
            SharedGroup g = q.sharedGroup("g", config(10, 10));
            List<SharedGroup.Delivery> first = g.fetch(10, LONG_LEASE, Duration.ZERO);
            // record 0 is stuck with a slow member; everything else is acked as it comes
            long furthest = 9;
            for (int round = 0; round < 3; round++) {
                List<SharedGroup.Delivery> ds = round == 0 ? first.subList(1, first.size())
                        : g.fetch(100, LONG_LEASE, Duration.ofMillis(50));
                for (SharedGroup.Delivery d : ds) {
                    furthest = Math.max(furthest, d.record().offset());
                    g.ack(d.token());
                }
            }
            List<SharedGroup.Delivery> more = g.fetch(100, LONG_LEASE, Duration.ofMillis(50));
            for (SharedGroup.Delivery d : more) {
                furthest = Math.max(furthest, d.record().offset());
            }
            assertThat(g.committedOffset()).isZero();
            assertThat(furthest - g.committedOffset() + 1).as("records between the committed offset (0, stuck) and "
                    + "the furthest record fetched").isLessThanOrEqualTo(10);
        }
    }

    @Test
    void aNameIsEitherAnExclusiveOrASharedGroupNeverBoth() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 3);
            q.group("exclusive").commit(2);
            q.sharedGroup("shared", config());
            assertThatThrownBy(() -> q.sharedGroup("exclusive", config())).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> q.group("shared")).isInstanceOf(IllegalStateException.class);
            q.group("fresh"); // exclusive, never committed
            assertThatThrownBy(() -> q.sharedGroup("fresh", config())).isInstanceOf(IllegalStateException.class);
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("events");
            assertThatThrownBy(() -> q.sharedGroup("exclusive", config())).as("after reopen")
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> q.group("shared")).as("after reopen").isInstanceOf(IllegalStateException.class);
            assertThat(q.group("exclusive").position()).isEqualTo(2);
        }
    }

    @Test
    void groupsListsSharedGroupsWithExclusiveOnesSortedAlsoAfterReopen() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 1);
            q.sharedGroup("zeta", config());
            q.group("alpha").commit(1);
            q.sharedGroup("beta", config());
            SharedGroup again = q.sharedGroup("beta", config(5, 2));
            assertThat(again.config()).as("an existing group keeps its stored settings").isEqualTo(config());
            assertThat(q.groups()).containsExactly("alpha", "beta", "zeta");
            assertThat(store.createLog("other").groups()).isEmpty();
        }
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.log("events");
            assertThat(q.groups()).containsExactly("alpha", "beta", "zeta");
            assertThat(q.sharedGroup("zeta", config(7, 3)).config()).isEqualTo(config());
        }
    }

    @Test
    void aLongPollingFetchWakesPromptlyForRecordsAppendedAfterItStarted() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            SharedGroup g = q.sharedGroup("g", config());
            for (int round = 0; round < 3; round++) {
                // a wait far longer than the test may take: returning proves the append reached it
                try (BackgroundCall<List<SharedGroup.Delivery>> waiting = BackgroundCall.start("member",
                        () -> g.fetch(10, LONG_LEASE, LONG_WAIT)).awaitTimedWaiting()) {
                    assertThat(waiting.isDone()).as("still waiting").isFalse();
                    long offset = q.append(Entry.of("late-" + round));
                    List<SharedGroup.Delivery> ds = waiting.get();
                    assertThat(offsets(ds)).containsExactly(offset);
                    assertThat(ds.get(0).record().payloadAsString()).isEqualTo("late-" + round);
                    g.ack(ds.get(0).token());
                }
            }
        }
    }

    @Test
    void aLongPollingFetchPicksUpARecordAnotherMemberGaveBack() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 1);
            SharedGroup g = q.sharedGroup("g", config());
            SharedGroup.Delivery held = g.fetch(1, LONG_LEASE, Duration.ZERO).get(0);
            try (BackgroundCall<List<SharedGroup.Delivery>> waiting = BackgroundCall.start("member",
                    () -> g.fetch(10, LONG_LEASE, LONG_WAIT)).awaitTimedWaiting()) {
                assertThat(waiting.isDone()).isFalse();
                g.nack(held.token(), Duration.ZERO, "give back");
                List<SharedGroup.Delivery> ds = waiting.get();
                assertThat(offsets(ds)).containsExactly(0L);
                assertThat(ds.get(0).deliveryCount()).isEqualTo(2);
            }
        }
    }

    @Test
    void aFetchWaitingOnAFullWindowParksAndTakesTheNextRecordOnceOneIsFinished() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 2);
            SharedGroup g = q.sharedGroup("g", config(1, 10));
            SharedGroup.Delivery held = g.fetch(1, LONG_LEASE, Duration.ZERO).get(0);
            // record 1 is there, but the window of one is full: the fetch waits parked, not spinning
            try (BackgroundCall<List<SharedGroup.Delivery>> waiting = BackgroundCall.start("member",
                    () -> g.fetch(1, LONG_LEASE, LONG_WAIT)).awaitTimedWaiting()) {
                assertThat(waiting.isDone()).isFalse();
                g.ack(held.token());
                assertThat(offsets(waiting.get())).containsExactly(1L);
            }
        }
    }

    @Test
    void fetchRejectsNonsenseArguments() throws Exception {
        try (Mikyu store = Mikyu.open(data)) {
            SharedGroup g = store.createLog("events").sharedGroup("g", config());
            assertThatThrownBy(() -> g.fetch(0, LONG_LEASE, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> g.fetch(1, Duration.ZERO, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(new ArrayList<>(g.fetch(1, LONG_LEASE, Duration.ZERO))).isEmpty();
        }
    }
}
