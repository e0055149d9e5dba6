package io.mikyu.samples.junit5;

import io.mikyu.junit5.InjectMikyu;
import io.mikyu.junit5.MikyuQueues;
import io.mikyu.junit5.MikyuTest;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The application's JMS code against a real mikyu store: one per test class, in a temporary directory deleted
 * afterwards. No broker to start, no connection to close, no sleeps: {@link MikyuQueues} waits with a deadline.
 */
@MikyuTest(options = "maxAttempts=3")
class OrdersTest {

    @InjectMikyu
    ConnectionFactory factory;

    @InjectMikyu
    MikyuQueues queues;

    @Test
    void aPlacedOrderIsOnTheQueue() throws Exception {
        new OrderService(factory).place("ada", "2 coffees");

        Message order = queues.receive("orders");
        assertEquals("2 coffees", order.getBody(String.class));
        assertEquals("ada", order.getStringProperty("customer"));
    }

    @Test
    void theProcessorHandlesEveryOrder() {
        try (OrderProcessor processor = new OrderProcessor(factory)) {
            OrderService service = new OrderService(factory);
            service.place("ada", "tea");
            service.place("bob", "cake");

            queues.awaitDrained("orders");
            assertEquals(List.of("ada: tea", "bob: cake"), processor.handled());
        }
    }

    @Test
    void anOrderThatCannotBeHandledEndsInTheDeadLetterQueue() throws Exception {
        try (OrderProcessor processor = new OrderProcessor(factory)) {
            new OrderService(factory).place("eve", "");
            queues.awaitDeadLetters("orders", 1);
        }
        List<Message> dead = queues.browseDeadLetters("orders");
        assertEquals(1, dead.size());
        assertEquals("eve", dead.get(0).getStringProperty("customer"));
        assertEquals(0, queues.depth("orders"));
    }
}
