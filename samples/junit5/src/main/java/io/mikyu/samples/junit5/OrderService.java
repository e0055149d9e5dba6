package io.mikyu.samples.junit5;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;

/** Places orders: one JMS message per order on the queue {@value #QUEUE}, the customer in a property. */
public final class OrderService {

    public static final String QUEUE = "orders";

    private final ConnectionFactory factory;

    public OrderService(ConnectionFactory factory) {
        this.factory = factory;
    }

    public void place(String customer, String item) {
        try (JMSContext jms = factory.createContext()) {
            jms.createProducer().setProperty("customer", customer).send(jms.createQueue(QUEUE), item);
        }
    }
}
