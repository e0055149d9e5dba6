package io.mikyu.samples.invm;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A JMS {@link ConnectionFactory} created in code on an embedded store: no JNDI, no broker, one line of mikyu. The
 * store lives in the directory of the {@code vm://} URL and is opened with the first connection, closed with the
 * last. A producer and an asynchronous listener on one queue, then a message sent with a delivery delay.
 *
 * <pre>
 *   java -jar samples/in-vm/target/mikyu-sample-in-vm.jar [data-dir]
 * </pre>
 */
public final class InVmSample {

    public static void main(String[] args) throws InterruptedException {
        String dataDir = args.length > 0 ? args[0] : "data";
        // durability=sync: a PERSISTENT send returns once it is on disk (fsynced); async returns after the write.
        ConnectionFactory factory = new MikyuConnectionFactory("vm://" + dataDir + "?durability=sync");

        try (JMSContext context = factory.createContext()) {
            Queue greetings = context.createQueue("greetings");

            // 1. An asynchronous listener: onMessage runs on the session's thread, one message at a time.
            CountDownLatch received = new CountDownLatch(3);
            JMSConsumer listener = context.createConsumer(greetings);
            listener.setMessageListener(message -> {
                try {
                    System.out.println("in-VM: the listener got '" + message.getBody(String.class) + "'");
                } catch (jakarta.jms.JMSException e) {
                    throw new IllegalStateException(e);
                }
                received.countDown();
            });
            for (String who : new String[] {"Ada", "Grace", "Edsger"}) {
                context.createProducer().send(greetings, "hello, " + who);
            }
            if (!received.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the listener did not get the three greetings");
            }
            listener.close();

            // 2. A delivery delay: the message is stored now and becomes visible 500 ms later.
            long sent = System.nanoTime();
            context.createProducer().setDeliveryDelay(500).send(greetings, "later");
            String later = context.createConsumer(greetings).receiveBody(String.class, 10_000);
            System.out.printf("in-VM: '%s' arrived after %d ms%n", later, (System.nanoTime() - sent) / 1_000_000);
        }
    }

    private InVmSample() {
    }
}
