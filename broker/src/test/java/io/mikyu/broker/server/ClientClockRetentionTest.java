package io.mikyu.broker.server;

import io.mikyu.engine.ClientClockWindow;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import io.mikyu.engine.Transaction;
import io.mikyu.engine.support.SteppableTimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client whose clock is hours off appends through a broker to a log queue kept for an hour: retention by age
 * goes by the broker's clock, not the client's, so nothing is deleted early and nothing is kept for ever.
 */
@Timeout(60)
class ClientClockRetentionTest {

    private static final Duration RETENTION = Duration.ofHours(1);
    private static final int RECORDS = 64;
    private static final byte[] PAYLOAD = new byte[1024];

    @TempDir
    Path dir;

    private final SteppableTimeSource brokerClock = SteppableTimeSource.startingNow();
    private RunningBroker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    /** A log queue of many small segments, kept for {@link #RETENTION}, as a client of the broker sees it. */
    private LogQueue events() {
        broker = new RunningBroker(dir.resolve("data"),
                RunningBroker.ENGINE.toBuilder().timeSource(brokerClock).build(), o -> o);
        Mikyu client = broker.dial();
        return client.createLog("events", LogQueueConfig.defaults().withSegmentBytes(LogQueueConfig.MIN_SEGMENT_BYTES)
                .withRetentionAge(RETENTION));
    }

    /** Appends {@link #RECORDS} records stamped by a client clock {@code skew} away from the broker's. */
    private static void appendWithClientClock(LogQueue q, SteppableTimeSource broker, Duration skew) {
        for (int i = 0; i < RECORDS; i++) {
            q.append(Entry.of(PAYLOAD).withTimestamp(broker.wallMillis() + skew.toMillis()));
        }
    }

    @Test
    void aClientClockHoursBehindDeletesNothingEarly() {
        LogQueue q = events();
        appendWithClientClock(q, brokerClock, Duration.ofHours(-2));

        assertThat(q.applyRetention()).as("records the broker took a moment ago, an hour's retention").isZero();
        assertThat(q.startOffset()).isZero();
        List<Record> records = q.read(0, RECORDS);
        assertThat(records).hasSize(RECORDS)
                .allSatisfy(r -> assertThat(r.timestamp()).as("the broker's time of the append")
                        .isEqualTo(brokerClock.wallMillis()));
    }

    @Test
    void aClientClockHoursAheadKeepsNothingForEver() {
        LogQueue q = events();
        appendWithClientClock(q, brokerClock, Duration.ofHours(2));

        brokerClock.advance(RETENTION.plusMinutes(1));
        assertThat(q.applyRetention()).as("an hour and a minute later by the broker's clock").isPositive();
        assertThat(q.startOffset()).isPositive();
    }

    @Test
    void anAppendInATransactionFromAClientHoursBehindGetsTheBrokersTime() {
        broker = new RunningBroker(dir.resolve("data"));
        Mikyu client = broker.dial();
        client.createLog("events");
        long before = System.currentTimeMillis();
        try (Transaction tx = client.beginTransaction()) {
            tx.append("events", Entry.of(PAYLOAD).withTimestamp(before - Duration.ofHours(2).toMillis()));
            tx.commit();
        }
        long after = System.currentTimeMillis();
        assertThat(client.log("events").read(0, 1).get(0).timestamp()).isBetween(before, after);
    }

    @Test
    void aClientClockWithinTheWindowKeepsItsTimestamps() {
        LogQueue q = events();
        Duration skew = Duration.ofMillis(-ClientClockWindow.MILLIS / 2);
        appendWithClientClock(q, brokerClock, skew);

        assertThat(q.read(0, RECORDS)).hasSize(RECORDS).allSatisfy(r -> assertThat(r.timestamp())
                .isEqualTo(brokerClock.wallMillis() + skew.toMillis()));
    }
}
