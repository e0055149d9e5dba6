package io.mikyu.broker.faults;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A consumer JVM of the consumer-kill scenario: consumes a queue with prefetch and reports every message it is
 * handed on stdout, as complete lines ending in {@code " $"} (a line cut by a kill is not one):
 * {@code D <id> <redelivered> <deliveryCount>} when handed, {@code S <id> <deliveryCount>} once its
 * {@code acknowledge()} returned, {@code F <id> <why>} if it threw (its lease had ended). A message with the property {@code poison} halts the JVM when handed, before
 * it can be acknowledged, every time.
 *
 * <p>Arguments: the broker URL with options, the queue, and the mode: {@code listener} (AUTO_ACKNOWLEDGE through a
 * {@code MessageListener}: acknowledged when {@code onMessage} returns) or {@code client} (CLIENT_ACKNOWLEDGE,
 * {@code receive} and {@code acknowledge()} per message).
 */
public final class PoisonedConsumerMain {

    static final String ID = "fid";
    static final String POISON = "poison";
    static final int HALTED_BY_POISON = 3;

    private PoisonedConsumerMain() {
    }

    public static void main(String[] args) throws Exception {
        ConsumerJvm.haltWhenTheParentIsGone();
        String url = args[0];
        String queue = args[1];
        boolean listener = args[2].equals("listener");
        if (listener) {
            ConsumerJvm.listenUntilKilled(url, queue, PoisonedConsumerMain::handed);
        } else {
            Connection connection = new MikyuConnectionFactory(url).createConnection();
            Session session = connection.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = session.createConsumer(session.createQueue(queue));
            connection.start();
            ConsumerJvm.say("ready");
            while (true) {
                Message m = consumer.receive(1_000);
                if (m != null) {
                    handed(m);
                    try {
                        m.acknowledge();
                        ConsumerJvm.say("S " + m.getStringProperty(ID) + " " + m.getIntProperty("JMSXDeliveryCount"));
                    } catch (JMSException e) {
                        // its lease ended first (a slow machine): it comes again, flagged; said, not hidden
                        ConsumerJvm.say("F " + m.getStringProperty(ID) + " " + e.getMessage().replace(' ', '_'));
                    }
                }
            }
        }
    }

    private static void handed(Message m) throws JMSException {
        ConsumerJvm.say("D " + m.getStringProperty(ID) + " " + m.getJMSRedelivered() + " "
                + m.getIntProperty("JMSXDeliveryCount"));
        if (m.propertyExists(POISON)) {
            Runtime.getRuntime().halt(HALTED_BY_POISON);
        }
    }

    /** Parses a line of a consumer into {@code ledger} (stream {@code stream}); other lines are ignored. */
    static void parse(String line, String stream, Ledger ledger, String consumer) {
        if (!line.endsWith(" $")) {
            return;
        }
        String[] f = line.substring(0, line.length() - 2).split(" ");
        if (f[0].equals("D") && f.length == 4) {
            ledger.delivered(stream, f[1], Boolean.parseBoolean(f[2]), Integer.parseInt(f[3]), consumer);
        } else if (f[0].equals("S") && f.length == 3) {
            ledger.settled(stream, Map.of(f[1], Integer.parseInt(f[2])));
        }
    }

    static List<String> args(String url, String queue, boolean listener) {
        return new ArrayList<>(List.of(url, queue, listener ? "listener" : "client"));
    }
}
