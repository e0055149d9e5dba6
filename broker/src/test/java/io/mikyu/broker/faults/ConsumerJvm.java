package io.mikyu.broker.faults;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * What the consumer JVMs of the fault scenarios share: they end with the test JVM, and they report on stdout in
 * complete lines ending in {@code " $"}, so that a line cut by a kill is not taken for one.
 */
final class ConsumerJvm {

    private static final PrintStream OUT = new PrintStream(System.out, false, StandardCharsets.UTF_8);

    private ConsumerJvm() {
    }

    /** Whatever becomes of the test JVM, no consumer outlives it: its end closes this JVM's stdin. */
    static void haltWhenTheParentIsGone() {
        Thread watch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is ever sent; only the end matters
                }
            } catch (java.io.IOException ignored) {
                // the same as the end
            }
            Runtime.getRuntime().halt(98);
        }, "parent-watch");
        watch.setDaemon(true);
        watch.start();
    }

    /** One complete line on stdout. */
    static void say(String line) {
        synchronized (OUT) {
            OUT.print(line + " $\n");
            OUT.flush();
        }
    }

    /** What a listener does with a message it is handed. */
    interface Handler {
        void handed(Message m) throws JMSException;
    }

    /**
     * A {@code MessageListener} with AUTO_ACKNOWLEDGE (acknowledged when {@code onMessage} returns) on {@code queue}
     * of the broker at {@code url}; says "ready" once started, then runs until the JVM is killed or halted.
     */
    static void listenUntilKilled(String url, String queue, Handler handler) throws Exception {
        Connection connection = new MikyuConnectionFactory(url).createConnection();
        Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        session.createConsumer(session.createQueue(queue)).setMessageListener(m -> {
            try {
                handler.handed(m);
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        connection.start();
        say("ready");
        new CountDownLatch(1).await();
    }
}
