package io.mikyu.jms.classic;

import io.mikyu.engine.Durability;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.jms.delivery.Inbound;
import io.mikyu.jms.delivery.MessageSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AUTO_ACKNOWLEDGE writes its acks in batches (full, or after the timer's delay). A source whose next fetch waits
 * until the messages of earlier fetches are acked (Kafka's share consumers) gets the waiting acks before the
 * consumer fetches again: else every fetch after the first waited for the timer, which was most of a durable
 * subscriber's latency on Kafka. Other sources, and DUPS_OK_ACKNOWLEDGE sessions, keep the batches.
 */
class AcksBeforeFetchTest {

    @Test
    void aFetchThatWaitsForAcksHasTheWaitingAutomaticAcksWrittenFirstInOneWrite() {
        Recording source = new Recording(true);
        Acknowledgements acks = new Acknowledgements(h -> { }, Durability.SYNC);
        ackSoon(acks, source, 3);
        assertThat(source.writes).as("nothing written before the batch is full or due").isEmpty();

        acks.beforeFetch(source);

        assertThat(source.writes).as("the three acks, in one write, before the fetch")
                .containsExactly(List.of(token(0), token(1), token(2)));
        acks.beforeFetch(source);
        assertThat(source.writes).as("nothing waiting: no further write").hasSize(1);
    }

    @Test
    void aFetchThatDoesNotWaitForAcksLeavesThemToTheBatch() {
        Recording source = new Recording(false);
        Acknowledgements acks = new Acknowledgements(h -> { }, Durability.SYNC);
        ackSoon(acks, source, 3);

        acks.beforeFetch(source);

        assertThat(source.writes).as("still waiting for a full batch or the timer").isEmpty();
        acks.flush();
        assertThat(source.writes).containsExactly(List.of(token(0), token(1), token(2)));
    }

    @Test
    void aDupsOkSessionLeavesThemToTheBatchEvenThere() {
        Recording source = new Recording(true);
        Acknowledgements acks = new Acknowledgements(h -> { }, Durability.SYNC, true);
        ackSoon(acks, source, 3);

        acks.beforeFetch(source);

        assertThat(source.writes).as("DUPS_OK: lazier acks, as the application allowed").isEmpty();
    }

    private static void ackSoon(Acknowledgements acks, MessageSource source, int n) {
        for (int i = 0; i < n; i++) {
            acks.ackSoon(new Held(source, new Inbound(Headers.EMPTY, new byte[0], 1, token(i), Long.MAX_VALUE), null));
        }
    }

    private static LeaseToken token(int i) {
        return new LeaseToken(i, 1);
    }

    /** A source that records each ack write. */
    private static final class Recording extends SourceStub {

        final List<List<LeaseToken>> writes = new ArrayList<>();
        private final boolean fetchWaitsForAcks;

        Recording(boolean fetchWaitsForAcks) {
            this.fetchWaitsForAcks = fetchWaitsForAcks;
        }

        @Override
        public boolean fetchWaitsForAcks() {
            return fetchWaitsForAcks;
        }

        @Override
        public void ack(List<LeaseToken> tokens) {
            writes.add(List.copyOf(tokens));
        }
    }
}
