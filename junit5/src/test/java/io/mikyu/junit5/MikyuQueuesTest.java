package io.mikyu.junit5;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The helpers: send and receive one message, depths, browsing, dead letters, and waits with a deadline. */
@MikyuTest(lifecycle = StoreLifecycle.PER_TEST, options = "maxAttempts=2")
class MikyuQueuesTest {

    private static final Duration SHORT = Duration.ofMillis(200);

    @Test
    void sendAndReceiveOneMessageWithProperties(MikyuQueues queues) throws Exception {
        String id = queues.send("orders", "2 coffees", Map.of("customer", "ada", "items", 2)).getJMSMessageID();
        Message received = queues.receive("orders");
        assertThat(received.getJMSMessageID()).isEqualTo(id);
        assertThat(received.getBody(String.class)).isEqualTo("2 coffees");
        assertThat(received.getStringProperty("customer")).isEqualTo("ada");
        assertThat(received.getIntProperty("items")).isEqualTo(2);
        assertThat(queues.depth("orders")).isZero();   // received is acknowledged
        assertThat(queues.receiveNoWait("orders")).isNull();
    }

    @Test
    void aReceiveThatGetsNothingFailsSayingWhatTheQueueHolds(MikyuQueues queues) throws Exception {
        queues.send("elsewhere", "x");
        assertThatThrownBy(() -> queues.receive("empty", SHORT)).isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("no message on queue 'empty' within PT0.2S")
                .hasMessageContaining("0 ready, 0 scheduled, 0 in flight");
    }

    @Test
    void depthCountsWhatIsNotYetAcknowledged(MikyuQueues queues, ConnectionFactory factory) throws Exception {
        queues.send("work", "a");
        queues.send("work", "b");
        assertThat(queues.depth("work")).isEqualTo(2);
        assertThat(queues.browse("work")).extracting(m -> m.getBody(String.class)).containsExactly("a", "b");
        try (JMSContext jms = factory.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Message held = jms.createConsumer(jms.createQueue("work")).receive(30_000);
            assertThat(held).isNotNull();
            assertThat(queues.counts("work").inFlight()).isEqualTo(1);
            assertThat(queues.depth("work")).isEqualTo(2);
            held.acknowledge();
        } catch (jakarta.jms.JMSException e) {
            throw new AssertionError(e);
        }
        assertThat(queues.depth("work")).isEqualTo(1);
        assertThatThrownBy(() -> queues.depth("wrok")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no queue 'wrok'").hasMessageContaining("work");
    }

    @Test
    void aMessageRolledBackMaxAttemptsTimesIsInTheDeadLetterQueue(MikyuQueues queues, ConnectionFactory factory) throws Exception {
        queues.send("payments", "poison");
        queues.send("payments", "fine");
        try (JMSContext tx = factory.createContext(JMSContext.SESSION_TRANSACTED)) {
            JMSConsumer consumer = tx.createConsumer(tx.createQueue("payments"));
            for (int attempt = 1; attempt <= 2; attempt++) {
                assertThat(consumer.receiveBody(String.class, 30_000)).isEqualTo("poison");
                tx.rollback();
            }
        }
        queues.awaitDeadLetters("payments", 1);
        assertThat(queues.deadLetterDepth("payments")).isEqualTo(1);
        List<Message> dead = queues.browseDeadLetters("payments");
        assertThat(dead).extracting(m -> m.getBody(String.class)).containsExactly("poison");
        assertThat(queues.depth("payments")).isEqualTo(1);
        assertThat(queues.receive("payments").getBody(String.class)).isEqualTo("fine");
    }

    @Test
    void awaitDrainedReturnsOnceAListenerConsumedEverything(MikyuQueues queues, ConnectionFactory factory) throws Exception {
        AtomicInteger consumed = new AtomicInteger();
        try (JMSContext listening = factory.createContext()) {
            listening.createConsumer(listening.createQueue("events")).setMessageListener(m -> consumed.incrementAndGet());
            for (int i = 0; i < 20; i++) {
                queues.send("events", "event " + i);
            }
            queues.awaitDrained("events");
            assertThat(consumed).hasValue(20);
        }
    }

    @Test
    void waitsThatTimeOutFailSayingWhatTheQueueHolds(MikyuQueues queues) throws Exception {
        queues.send("stuck", "nobody consumes this");
        assertThatThrownBy(() -> queues.awaitDrained("stuck", SHORT)).isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("queue 'stuck' to be drained")
                .hasMessageContaining("1 ready, 0 scheduled, 0 in flight; 0 in stuck/dlq");
        assertThatThrownBy(() -> queues.awaitDeadLetters("stuck", 1, SHORT))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("to hold 1 dead letters");
        assertThatThrownBy(() -> queues.awaitDrained("nosuch", SHORT)).isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("there is no such queue").hasMessageContaining("stuck");
        assertThat(queues.timeout()).isEqualTo(Duration.ofSeconds(30));
    }
}
