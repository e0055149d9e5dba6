package io.mikyu.samples.remote;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;

/**
 * A producer and a consumer, each its own process, talking to a {@code mikyu daemon} over {@code tcp://}. The code is
 * the same as for an embedded store: only the URL changes. {@code run.sh} starts the daemon and both processes.
 *
 * <pre>
 *   java -jar samples/remote/target/mikyu-sample-remote.jar produce tcp://127.0.0.1:7420 [count]
 *   java -jar samples/remote/target/mikyu-sample-remote.jar consume tcp://127.0.0.1:7420 [count]
 * </pre>
 */
public final class RemoteSample {

    public static void main(String[] args) {
        if (args.length < 2 || !(args[0].equals("produce") || args[0].equals("consume"))) {
            System.err.println("usage: (produce|consume) tcp://HOST:PORT [count]");
            System.exit(2);
        }
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        // A daemon restarted while we run is dialled again (reconnect=30s by default); sends and acks wait for it.
        ConnectionFactory factory = new MikyuConnectionFactory(args[1] + "?durability=sync");
        if (args[0].equals("produce")) {
            produce(factory, count);
        } else {
            consume(factory, count);
        }
    }

    private static void produce(ConnectionFactory factory, int count) {
        try (JMSContext context = factory.createContext()) {
            Queue jobs = context.createQueue("jobs");
            for (int i = 1; i <= count; i++) {
                // PERSISTENT (the default): send() returns once the daemon has the message on disk.
                context.createProducer().setProperty("job", i).send(jobs, "job #" + i);
            }
            System.out.println("producer: sent " + count + " jobs");
        }
    }

    private static void consume(ConnectionFactory factory, int count) {
        // CLIENT_ACKNOWLEDGE: a job is done when acknowledge() returns; if this process dies before, the daemon
        // gives it to another consumer, flagged JMSRedelivered.
        try (JMSContext context = factory.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            JMSConsumer consumer = context.createConsumer(context.createQueue("jobs"));
            int done = 0;
            while (done < count) {
                var message = consumer.receive(30_000);
                if (message == null) {
                    throw new IllegalStateException("consumer: waited 30 s for job " + (done + 1) + " of " + count);
                }
                done++;
                message.acknowledge();
            }
            System.out.println("consumer: did " + done + " jobs");
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    private RemoteSample() {
    }
}
