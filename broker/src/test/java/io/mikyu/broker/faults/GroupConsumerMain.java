package io.mikyu.broker.faults;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Session;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * A consumer JVM of the message-group kill scenario: a {@code MessageListener} with AUTO_ACKNOWLEDGE on a queue of a
 * daemon, reporting each message it is handed as a complete line {@code D <group> <seq> <redelivered> $} (a line cut
 * by a kill is not one). Arguments: the broker URL with options, the queue.
 */
public final class GroupConsumerMain {

    private static final PrintStream OUT = new PrintStream(System.out, false, StandardCharsets.UTF_8);

    private GroupConsumerMain() {
    }

    public static void main(String[] args) throws Exception {
        Thread watch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is ever sent; only the end matters (the test JVM is gone)
                }
            } catch (java.io.IOException ignored) {
                // the same as the end
            }
            Runtime.getRuntime().halt(98);
        }, "parent-watch");
        watch.setDaemon(true);
        watch.start();
        Connection connection = new MikyuConnectionFactory(args[0]).createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createConsumer(session.createQueue(args[1])).setMessageListener(m -> {
            try {
                say("D " + m.getStringProperty("JMSXGroupID") + " " + m.getIntProperty("JMSXGroupSeq") + " "
                        + m.getJMSRedelivered());
            } catch (jakarta.jms.JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        connection.start();
        say("ready");
        new CountDownLatch(1).await(); // until killed
    }

    private static void say(String line) {
        synchronized (OUT) {
            OUT.print(line + " $\n");
            OUT.flush();
        }
    }
}
