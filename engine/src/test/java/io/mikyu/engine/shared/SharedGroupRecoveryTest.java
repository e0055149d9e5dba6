package io.mikyu.engine.shared;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.support.StoreFiles;
import io.mikyu.engine.support.ChildProcess;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.mikyu.engine.shared.SharedTesting.LONG_LEASE;
import static io.mikyu.engine.shared.SharedTesting.config;
import static io.mikyu.engine.shared.SharedTesting.BACKOFF;
import static io.mikyu.engine.shared.SharedTesting.fill;
import static io.mikyu.engine.shared.SharedTesting.offsets;
import static org.assertj.core.api.Assertions.assertThat;

/** A shared group's leases, acks and committed offset after a close and after a SIGKILL. */
@Timeout(40)
class SharedGroupRecoveryTest {

    /**
     * The leases of the records fetched before the close or the kill: long enough for their acks to be made on a
     * loaded machine (an ack after the lease ended is refused), since the reopen passes their end on a stepped
     * clock rather than by waiting.
     */
    private static final long LEASE_MILLIS = 60_000;

    @TempDir
    Path data;

    @Test
    void afterAReopenUnackedLeasedRecordsComeBackAfterTheirLeaseAndAckedOnesNever() throws Exception {
        long leaseEnds;
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 10);
            SharedGroup g = q.sharedGroup("g", config());
            List<SharedGroup.Delivery> ds = g.fetch(6, Duration.ofMillis(LEASE_MILLIS), Duration.ZERO);
            leaseEnds = ds.get(0).leaseExpiresAt();
            g.ack(ds.get(0).token());
            g.ack(ds.get(1).token());
            g.ack(ds.get(3).token());
            assertThat(g.committedOffset()).isEqualTo(2);
        }
        checkRecoveredState(leaseEnds);
    }

    @Test
    void afterASigkillUnackedLeasedRecordsComeBackAfterTheirLeaseAndAckedOnesNever() throws Exception {
        long leaseEnds;
        try (ChildProcess child = ChildProcess.start(data.getParent().resolve(data.getFileName()), SharedGroupChild.class,
                Map.of(), "lease", data.resolve("store").toString(), String.valueOf(LEASE_MILLIS))) {
            child.awaitLine("DONE", Duration.ofSeconds(20));
            leaseEnds = Long.parseLong(child.lines("DONE").get(0).split(" ")[1]);
            child.sigkill();
        }
        data = data.resolve("store");
        checkRecoveredState(leaseEnds);
    }

    @Test
    void aStateLogOfManySmallSegmentsIsTrimmedBelowTheCommittedOffsetAndRecoversExactly() throws Exception {
        SharedGroupConfig small = new SharedGroupConfig(200, config().redelivery().withSegmentBytes(4096));
        Path stateDir = data.resolve("log").resolve("events").resolve("shared-groups").resolve("g");
        SharedGroup.Delivery stuck = null;
        int written;
        try (Mikyu store = Mikyu.open(data)) {
            LogQueue q = store.createLog("events");
            fill(q, 0, 2_000);
            SharedGroup g = q.sharedGroup("g", small);
            List<SharedGroup.Delivery> ds;
            while (!(ds = g.fetch(100, LONG_LEASE, Duration.ZERO)).isEmpty()) {
                for (SharedGroup.Delivery d : ds) {
                    if (d.record().offset() == 1_500) {
                        stuck = d;
                    } else {
                        g.ack(d.token());
                    }
                }
            }
            assertThat(g.committedOffset()).isEqualTo(1_500);
            written = StoreFiles.segments(stateDir).size();
            assertThat(written).as("the state log rolled many times").isGreaterThan(10);
        }
        assertThat(stuck).isNotNull();
        try (Mikyu store = Mikyu.open(data)) {
            assertThat(StoreFiles.segments(stateDir).size()).as("segments below the committed offset are gone")
                    .isLessThan(written);
            SharedGroup g = store.log("events").sharedGroup("g", small);
            assertThat(g.committedOffset()).isEqualTo(1_500);
            assertThat(g.counts()).isEqualTo(new io.mikyu.engine.TaskCounts(0, 0, 1));
            assertThat(g.fetch(100, LONG_LEASE, Duration.ofMillis(300))).as("nothing acked comes back").isEmpty();
            g.ack(stuck.token());
            assertThat(g.committedOffset()).as("the window stopped 200 records past the stuck one")
                    .isEqualTo(1_700);
            List<SharedGroup.Delivery> rest;
            while (!(rest = g.fetch(100, LONG_LEASE, Duration.ZERO)).isEmpty()) {
                assertThat(rest).allSatisfy(d -> assertThat(d.record().offset()).isGreaterThanOrEqualTo(1_700));
                g.ack(rest.stream().map(SharedGroup.Delivery::token).toList());
            }
            assertThat(g.committedOffset()).isEqualTo(2_000);
        }
        try (Mikyu store = Mikyu.open(data)) {
            SharedGroup g = store.log("events").sharedGroup("g", small);
            assertThat(g.committedOffset()).isEqualTo(2_000);
            assertThat(g.fetch(100, LONG_LEASE, Duration.ofMillis(300))).isEmpty();
        }
    }

    /** Records 0-5 were fetched, 0, 1 and 3 acked; 6-9 never fetched. */
    private void checkRecoveredState(long leaseEnds) throws Exception {
        // Reopened on a clock a millisecond before the leases end (steady time reads as wall time across restarts)
        SteppableTimeSource clock = new SteppableTimeSource(leaseEnds - 1);
        try (Mikyu store = Mikyu.open(data, EngineConfig.builder().timeSource(clock).build())) {
            LogQueue q = store.log("events");
            SharedGroup g = q.sharedGroup("g", config());
            assertThat(g.committedOffset()).as("lowest unacked after reopen").isEqualTo(2);
            assertThat(g.lag()).isEqualTo(8);

            List<SharedGroup.Delivery> fresh = g.fetch(10, LONG_LEASE, Duration.ZERO);
            assertThat(offsets(fresh)).as("while the old leases hold, only never-fetched records")
                    .containsExactly(6L, 7L, 8L, 9L);
            assertThat(fresh).allSatisfy(d -> assertThat(d.deliveryCount()).isEqualTo(1));
            clock.advance(BACKOFF); // the leases ended; their backoff, less a millisecond, is over
            assertThat(g.fetch(10, LONG_LEASE, Duration.ZERO)).as("not before the lease and its backoff").isEmpty();
            clock.advance(Duration.ofMillis(1));
            List<SharedGroup.Delivery> back = g.fetch(10, LONG_LEASE, Duration.ZERO);
            assertThat(offsets(back)).as("the unacked leased records").containsExactlyInAnyOrder(2L, 4L, 5L);
            assertThat(back).allSatisfy(d -> assertThat(d.deliveryCount()).isEqualTo(2));
            clock.advance(Duration.ofSeconds(1));
            assertThat(g.fetch(10, LONG_LEASE, Duration.ZERO)).as("acked records never come back").isEmpty();

            for (SharedGroup.Delivery d : fresh) {
                if (d.record().offset() >= 6) {
                    g.ack(d.token());
                }
            }
            back.forEach(d -> g.ack(d.token()));
            assertThat(g.committedOffset()).isEqualTo(10);
        }
        try (Mikyu store = Mikyu.open(data)) {
            SharedGroup g = store.log("events").sharedGroup("g", config());
            assertThat(g.committedOffset()).isEqualTo(10);
            assertThat(g.fetch(10, LONG_LEASE, Duration.ofMillis(300))).isEmpty();
        }
    }
}
