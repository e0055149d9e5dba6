package io.mikyu.it.app;

import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every delivery this application's message-driven beans were given, in order, as the bean saw it: the body, the
 * delivery count and redelivered flag the adapter set, and the thread that delivered it (each of an activation's
 * sessions delivers on a thread of its own). Kept in memory, outside any transaction, so a delivery whose
 * transaction rolled back is recorded too.
 */
@Singleton
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class Deliveries {

    /** One delivery, written as one line of tab-separated fields for the test to read. */
    public record Delivery(String body, int deliveryCount, boolean redelivered, String thread) {

        public String line() {
            return body + "\t" + deliveryCount + "\t" + redelivered + "\t" + thread;
        }
    }

    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();

    public void record(Message message) throws JMSException {
        deliveries.add(new Delivery(message.getBody(String.class), message.getIntProperty("JMSXDeliveryCount"),
                message.getJMSRedelivered(), Thread.currentThread().getName()));
    }

    public List<Delivery> all() {
        return List.copyOf(deliveries);
    }
}
