package io.mikyu.jms.classic;

import io.mikyu.engine.Headers;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.StoreClosedException;
import io.mikyu.jms.delivery.Inbound;
import io.mikyu.jms.delivery.MessageSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * AUTO_ACKNOWLEDGE writes its acks in batches; the receive that fills a batch writes it. When that write fails (the
 * broker's connection was lost with the acks in flight: their outcome is not known), the receive has a message to
 * return and must return it, as the timer's writes do: the failure is logged and the messages, no longer renewed,
 * come again flagged redelivered if the acks were not carried out. A raw engine exception out of {@code receive()}
 * broke applications that catch {@code JMSException} (seen in the daemon-kill fault scenario).
 */
class AutomaticAcknowledgementFailureTest {

    @Test
    void aReceiveThatFillsABatchOfAcksThatCannotBeWrittenStillReturnsItsMessage() {
        List<Held> released = new ArrayList<>();
        Acknowledgements acks = new Acknowledgements(released::add, io.mikyu.engine.Durability.SYNC);
        MessageSource unreachable = new Unreachable();
        for (int i = 0; i < Acknowledgements.BATCH; i++) {
            Held h = new Held(unreachable, new Inbound(Headers.EMPTY, new byte[0], 1, new LeaseToken(i, 1),
                    Long.MAX_VALUE), null);
            assertThatCode(() -> acks.ackSoon(h)).as("automatic ack %d", i).doesNotThrowAnyException();
        }
        // With durability=sync the full batch is written in the background; flush() waits for it, and does not throw.
        assertThatCode(acks::flush).as("flush after the failed write").doesNotThrowAnyException();
        assertThat(released).as("no longer renewed: they come again when their leases end, if not acked")
                .hasSize(Acknowledgements.BATCH);
    }

    /** A source whose broker connection was lost while acks were in flight. */
    private static final class Unreachable extends SourceStub {

        @Override
        public void ack(List<LeaseToken> tokens) {
            throw new StoreClosedException("connection to mikyu broker was closed; an ack was in flight, so whether"
                    + " the broker carried it out is not known");
        }
    }
}
