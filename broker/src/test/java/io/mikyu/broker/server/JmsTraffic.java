package io.mikyu.broker.server;

import io.mikyu.broker.server.DeliveryLedger.Delivery;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionRolledBackException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * JMS clients at work on one queue while the network under them fails: a producer sending PERSISTENT messages one
 * by one, a transacted producer committing three at a time (one JMS connection), and three consumers with prefetch
 * (another JMS connection): AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE acknowledging every two messages, and a transacted
 * one that sends what it consumed to an output queue in the same transaction, committing every three. Everything
 * they did and were told goes to a {@link DeliveryLedger}.
 */
final class JmsTraffic implements AutoCloseable {

    static final String QUEUE = "net.work";
    static final String OUTPUT = "net.out";

    private final String prefix;
    private final DeliveryLedger ledger;
    private final Connection producing;
    private final Connection consuming;
    private final List<Thread> producers = new ArrayList<>();
    private final List<Thread> consumers = new ArrayList<>();
    private final List<Throwable> crashed = new CopyOnWriteArrayList<>();
    /** Consumers holding messages they have not acknowledged or committed yet. */
    private final Set<String> holding = ConcurrentHashMap.newKeySet();
    private volatile boolean produce = true;
    private volatile boolean consume = true;

    /**
     * Starts the clients: producers dial {@code producerUrl}, consumers {@code consumerUrl}; message ids start
     * with {@code prefix}.
     */
    JmsTraffic(String prefix, String producerUrl, String consumerUrl, DeliveryLedger ledger) throws JMSException {
        this.prefix = prefix;
        this.ledger = ledger;
        this.producing = new MikyuConnectionFactory(producerUrl).createConnection();
        try {
            this.consuming = new MikyuConnectionFactory(consumerUrl).createConnection();
        } catch (JMSException | RuntimeException e) {
            producing.close();
            throw e;
        }
        consuming.start();
        consumers.add(thread("auto", this::autoConsumer));
        consumers.add(thread("client", this::clientConsumer));
        consumers.add(thread("transacted", this::transactedConsumer));
        producers.add(thread("send", this::plainProducer));
        producers.add(thread("commit", this::transactedProducer));
        consumers.forEach(Thread::start);
        producers.forEach(Thread::start);
    }

    /** Stops the producers and waits for them. */
    void stopProducing() throws InterruptedException {
        produce = false;
        for (Thread t : producers) {
            t.join(120_000);
        }
    }

    /** Whether every consumer has settled (acknowledged, committed, or been told it could not) what it took. */
    boolean settled() {
        return holding.isEmpty();
    }

    /** Client threads that died of something unexpected. */
    List<Throwable> crashed() {
        return List.copyOf(crashed);
    }

    @Override
    public void close() throws Exception {
        produce = false;
        consume = false;
        for (Thread t : producers) {
            t.join(120_000);
        }
        for (Thread t : consumers) {
            t.join(120_000);
        }
        try {
            producing.close();
        } finally {
            consuming.close();
        }
    }

    private interface Work {
        void run() throws Exception;
    }

    private Thread thread(String name, Work work) {
        Thread t = new Thread(() -> {
            try {
                work.run();
            } catch (Throwable e) {
                crashed.add(e);
            }
        }, "traffic-" + prefix + name);
        t.setDaemon(true);
        return t;
    }

    private void plainProducer() throws JMSException {
        Session s = producing.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer p = s.createProducer(s.createQueue(QUEUE));
        p.setDeliveryMode(DeliveryMode.PERSISTENT);
        for (int i = 0; produce; i++) {
            String id = prefix + "p" + i;
            try {
                p.send(s.createTextMessage(id));
                ledger.sent(id);
            } catch (JMSException e) {
                ledger.sendUnknown(id, e);
            }
        }
    }

    private void transactedProducer() throws JMSException {
        Session s = producing.createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer p = s.createProducer(s.createQueue(QUEUE));
        p.setDeliveryMode(DeliveryMode.PERSISTENT);
        for (int i = 0; produce; i++) {
            List<String> ids = List.of(prefix + "t" + i + "a", prefix + "t" + i + "b", prefix + "t" + i + "c");
            for (String id : ids) {
                p.send(s.createTextMessage(id));
            }
            try {
                s.commit();
                ids.forEach(ledger::sent);
            } catch (TransactionRolledBackException e) {
                ledger.sendsRolledBack(ids, e);
            } catch (JMSException e) {
                checkUnknown("commit of sends " + ids, e);
                ledger.sendsUnknown(ids, e);
            }
        }
    }

    private void autoConsumer() throws JMSException {
        Session s = consuming.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer c = s.createConsumer(s.createQueue(QUEUE));
        while (consume) {
            Message m = receive(c, "auto");
            if (m != null) {
                ledger.delivered(delivery(m, "auto"));
            }
        }
        s.close();
    }

    private void clientConsumer() throws JMSException {
        Session s = consuming.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer c = s.createConsumer(s.createQueue(QUEUE));
        List<Delivery> held = new ArrayList<>();
        Message last = null;
        while (consume || !held.isEmpty()) {
            Message m = receive(c, "client");
            if (m != null) {
                last = m;
                Delivery d = delivery(m, "client");
                ledger.delivered(d);
                held.add(d);
                holding.add("client");
            }
            if (held.size() >= 2 || (m == null && !held.isEmpty())) {
                try {
                    last.acknowledge();     // every message the session delivered
                    ledger.settled(held);
                } catch (JMSException e) {
                    // Some may be acknowledged, some not: the ledger claims nothing for them.
                    ledger.failed("acknowledge of " + held, e);
                    if (!says(e, "lease") && !saysUnknown(e)) {
                        ledger.wrongAnswer("acknowledge() failed without saying what happened: " + e);
                    }
                }
                held.clear();
                holding.remove("client");
            }
        }
        s.close();
    }

    private void transactedConsumer() throws JMSException {
        Session s = consuming.createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer c = s.createConsumer(s.createQueue(QUEUE));
        MessageProducer out = s.createProducer(s.createQueue(OUTPUT));
        out.setDeliveryMode(DeliveryMode.PERSISTENT);
        List<Delivery> consumed = new ArrayList<>();
        while (consume || !consumed.isEmpty()) {
            Message m = receive(c, "transacted");
            if (m != null) {
                Delivery d = delivery(m, "transacted");
                ledger.delivered(d);
                consumed.add(d);
                holding.add("transacted");
                out.send(s.createTextMessage(DeliveryLedger.output(d)));
            }
            if (consumed.size() >= 3 || (m == null && !consumed.isEmpty())) {
                try {
                    s.commit();
                    ledger.settled(consumed);
                    ledger.outputsCommitted(consumed);
                } catch (TransactionRolledBackException e) {
                    ledger.consumedRolledBack(List.copyOf(consumed), e);
                    ledger.outputsRolledBack(consumed);
                } catch (JMSException e) {
                    checkUnknown("commit of consumed " + consumed, e);
                    ledger.failed("commit of consumed " + consumed, e);
                }
                consumed.clear();
                holding.remove("transacted");
            }
        }
        s.close();
    }

    /** A receive that waits a little; a failure is noted and the consumer goes on. */
    private Message receive(MessageConsumer c, String who) {
        try {
            return c.receive(100);
        } catch (JMSException e) {
            ledger.failed("receive of the " + who + " consumer", e);
            return null;
        }
    }

    private static Delivery delivery(Message m, String by) throws JMSException {
        return new Delivery(((TextMessage) m).getText(), by, m.getJMSRedelivered(),
                m.getIntProperty("JMSXDeliveryCount"));
    }

    /** A failed commit that is not a rollback must say its outcome is unknown. */
    private void checkUnknown(String what, JMSException e) {
        if (!saysUnknown(e)) {
            ledger.wrongAnswer(what + " failed, neither as a rollback nor saying the outcome is unknown: " + e);
        }
    }

    private static boolean saysUnknown(JMSException e) {
        return says(e, "unknown") || says(e, "not known");
    }

    private static boolean says(JMSException e, String words) {
        return e.getMessage() != null && e.getMessage().contains(words);
    }
}
