package io.mikyu.samples.junit5;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Handles orders as they arrive: a listener on {@value OrderService#QUEUE}. An order without an item is refused (the
 * listener throws), so the message comes again and, once the provider's {@code maxAttempts} are used up, it goes to
 * the dead-letter queue {@code orders/dlq}.
 */
public final class OrderProcessor implements MessageListener, AutoCloseable {

    private final JMSContext jms;
    private final List<String> handled = new CopyOnWriteArrayList<>();

    public OrderProcessor(ConnectionFactory factory) {
        jms = factory.createContext();
        jms.createConsumer(jms.createQueue(OrderService.QUEUE)).setMessageListener(this);
    }

    @Override
    public void onMessage(Message message) {
        try {
            String item = message.getBody(String.class);
            if (item == null || item.isBlank()) {
                throw new IllegalArgumentException("an order needs an item");
            }
            handled.add(message.getStringProperty("customer") + ": " + item);
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The orders handled so far, "customer: item", in order. */
    public List<String> handled() {
        return List.copyOf(handled);
    }

    @Override
    public void close() {
        jms.close();
    }
}
