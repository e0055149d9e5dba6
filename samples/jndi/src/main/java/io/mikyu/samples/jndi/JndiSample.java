package io.mikyu.samples.jndi;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * mikyu through standard Jakarta Messaging code: everything is looked up in JNDI ({@code jndi.properties} on the
 * class path names mikyu's factory and a {@code vm://} URL), so nothing here is mikyu-specific. A queue send and
 * receive, a durable subscriber that gets what was published while it was away, and a message that fails three
 * times and lands in the queue's dead-letter queue, {@code orders/dlq}.
 */
public final class JndiSample {

    public static void main(String[] args) throws NamingException, InterruptedException {
        java.util.Hashtable<String, String> env = new java.util.Hashtable<>();
        if (args.length > 0) { // another data directory than jndi.properties' ./data
            env.put("connectionFactory.ConnectionFactory",
                    "vm://" + args[0] + "?durability=sync&clientID=quickstart&maxAttempts=3");
        }
        InitialContext jndi = new InitialContext(env);
        ConnectionFactory factory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        Queue orders = (Queue) jndi.lookup("orders");
        Topic prices = (Topic) jndi.lookup("prices");

        // 1. Send and receive on a queue. AUTO_ACKNOWLEDGE: the message is acked when receive() returns.
        try (JMSContext context = factory.createContext()) {
            context.createProducer().setProperty("customer", "ada").send(orders, "order #1: 2 coffees");
            TextMessage order = (TextMessage) context.createConsumer(orders).receive(5_000);
            System.out.println("JMS: received '" + order.getText() + "' for " + order.getStringProperty("customer"));
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }

        // 2. A durable subscription (client ID "quickstart" comes from the URL): created, closed, then prices are
        //    published while nobody listens; the subscription keeps them until its subscriber comes back.
        try (JMSContext context = factory.createContext()) {
            context.createDurableConsumer(prices, "ticker").close();
            context.createProducer().send(prices, "EURUSD 1.0842");
            context.createProducer().send(prices, "EURUSD 1.0845");
            JMSConsumer ticker = context.createDurableConsumer(prices, "ticker");
            String price;
            while ((price = ticker.receiveBody(String.class, 500)) != null) {
                System.out.println("JMS: the durable subscriber caught up on '" + price + "'");
            }
            ticker.close();
            context.unsubscribe("ticker");
        }

        // 3. A message whose processing keeps failing: each rollback redelivers it (JMSRedelivered, and
        //    JMSXDeliveryCount counts up); after maxAttempts=3 (in the URL) it moves to "orders/dlq".
        try (JMSContext tx = factory.createContext(JMSContext.SESSION_TRANSACTED)) {
            tx.createProducer().send(orders, "order #2: malformed");
            tx.commit();
            JMSConsumer consumer = tx.createConsumer(orders);
            Message m;
            while ((m = consumer.receive(500)) != null) {
                System.out.println("JMS: attempt " + m.getIntProperty("JMSXDeliveryCount") + " of '"
                        + m.getBody(String.class) + "' failed; rolling back");
                tx.rollback();
            }
            Queue deadLetters = tx.createQueue("orders/dlq");
            String dead = tx.createConsumer(deadLetters).receiveBody(String.class, 5_000);
            tx.commit();
            System.out.println("JMS: '" + dead + "' is in orders/dlq");
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    private JndiSample() {
    }
}
