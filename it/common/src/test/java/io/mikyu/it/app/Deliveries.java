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

    /** One delivery; for the test, one line of tab-separated fields ({@code GET /deliveries}). */
    public record Delivery(String body, int deliveryCount, boolean redelivered, String thread) {

        public String line() {
            return body + "\t" + deliveryCount + "\t" + redelivered + "\t" + thread;
        }

        public static Delivery parse(String line) {
            String[] f = line.split("\t", 4);
            return new Delivery(f[0], Integer.parseInt(f[1]), Boolean.parseBoolean(f[2]), f[3]);
        }

        public static List<Delivery> parse(List<String> lines) {
            return lines.stream().map(Delivery::parse).toList();
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
