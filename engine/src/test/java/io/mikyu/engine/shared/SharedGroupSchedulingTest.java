package io.mikyu.engine.shared;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.SharedGroup;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.mikyu.engine.shared.SharedTesting.LONG_LEASE;
import static io.mikyu.engine.shared.SharedTesting.config;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shared group honours per-record priority, delivery time and expiry headers, as task queues do. Delivery and
 * expiry times are on a clock the tests move.
 */
class SharedGroupSchedulingTest {

    @TempDir
    Path data;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();

    private Mikyu open() {
        return Mikyu.open(data, EngineConfig.builder().timeSource(clock).build());
    }

    private static Entry entry(String payload, String... headers) {
        return Entry.of(payload).withHeaders(Headers.of(headers));
    }

    private static List<String> payloads(List<SharedGroup.Delivery> ds) {
        return ds.stream().map(d -> d.record().payloadAsString()).toList();
    }

    @Test
    void higherPriorityRecordsAreDeliveredFirstAndDelayedOnesWhenDue() throws Exception {
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            long soon = clock.wallMillis() + 400;
            q.append(entry("low", SharedGroup.PRIORITY_HEADER, "1"));
            q.append(entry("later", SharedGroup.DELIVER_AT_HEADER, Long.toString(soon)));
            q.append(entry("plain"));
            q.append(entry("high", SharedGroup.PRIORITY_HEADER, "9"));
            q.append(entry("bad header", SharedGroup.PRIORITY_HEADER, "urgent"));
            SharedGroup g = q.sharedGroup("g", config(100, 3));

            assertThat(payloads(g.fetch(10, LONG_LEASE, Duration.ZERO)))
                    .as("by priority, FIFO within; the delayed one not yet")
                    .containsExactly("high", "plain", "bad header", "low");
            clock.advance(Duration.ofMillis(399));
            assertThat(g.fetch(10, LONG_LEASE, Duration.ZERO)).as("not before its delivery time").isEmpty();
            clock.advance(Duration.ofMillis(1));
            assertThat(payloads(g.fetch(10, LONG_LEASE, Duration.ZERO))).containsExactly("later");
        }
    }

    @Test
    void expiredRecordsAreNeverDeliveredAndDoNotHoldTheCommittedOffsetBack() throws Exception {
        try (Mikyu store = open()) {
            LogQueue q = store.createLog("events");
            q.append(entry("expired", SharedGroup.EXPIRES_AT_HEADER, Long.toString(clock.wallMillis() - 1)));
            q.append(entry("fresh"));
            SharedGroup g = q.sharedGroup("g", config(100, 3));
            List<SharedGroup.Delivery> ds = g.fetch(10, LONG_LEASE, Duration.ZERO);
            assertThat(payloads(ds)).containsExactly("fresh");
            g.ack(ds.get(0).token());
            assertThat(g.committedOffset()).isEqualTo(2);
        }
    }
}
