package io.mikyu.broker.faults;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.TaskCounts;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TransactionRolledBackException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Fault scenario 1: {@code mikyu daemon} killed with SIGKILL every 1–5 s (random, seeded) and started again on the
 * same port and data directory, for {@link Faults#cycles} cycles (5 by default, 100 with {@code -Pfaults}), while
 * JMS clients over {@code tcp://} with reconnect send PERSISTENT messages (plain and in transactions) and consume
 * them with AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE and a transacted session from three queues, and from a topic through
 * a durable subscription and a shared durable subscription (two consumers). Every message carries a unique id; the
 * {@link Ledger} checks after every cycle that no delivery broke an invariant, and at the end, with the daemon left
 * up, that every send that returned was delivered and nothing is left in the queues, leased or in a dead-letter
 * queue.
 */
@Tag("faults")
class DaemonKillLoopTest {

    private static final int DEFAULT_CYCLES = 5;
    private static final String AUTO = "fk.auto";
    private static final String CLIENT = "fk.client";
    private static final String TX = "fk.tx";
    private static final String TOPIC = "fk.topic";
    private static final String DURABLE = TOPIC + "/durable";
    private static final String SHARED = TOPIC + "/shared";
    private static final String ID = "fid";
    /** Reconnect for longer than any restart takes; short leases so what a lost connection held comes back soon. */
    private static final String OPTIONS = "reconnect=300s&leaseMillis=5000&maxAttempts=100&connectTimeout=5s";
    private static final Duration RECEIVE = Duration.ofMillis(200);

    /** Set once the faults stop: producers send no more, consumers go on until everything is delivered. */
    private final AtomicBoolean producersStop = new AtomicBoolean();

    @TempDir
    Path dir;

    @Test
    void everyReturnedSendIsDeliveredAndEveryDuplicateFlaggedWhileTheDaemonIsKilledInALoop() {
        int cycles = Faults.cycles(DEFAULT_CYCLES);
        assertTimeoutPreemptively(Faults.backstop(cycles),
                () -> run(cycles, Faults.seed()));
    }

    private void run(int cycles, long seed) throws Exception {
        Random random = new Random(seed);
        Ledger ledger = new Ledger();
        long started = System.nanoTime();
        try (FaultDaemon daemon = FaultDaemon.start(dir.resolve("daemon"), Faults.DAEMON_KILL_PORT);
             Workers workers = new Workers()) {
            String url = daemon.url() + "?" + OPTIONS;
            List<Connection> connections = new ArrayList<>();
            try {
                startConsumers(url, ledger, workers, connections);
                startProducers(url, ledger, workers, connections);
                for (int cycle = 1; cycle <= cycles; cycle++) {
                    String where = "cycle " + cycle + " of " + cycles + " (-D" + Faults.SEED + "=" + seed + ")";
                    Faults.pause(Duration.ofMillis(1_000 + random.nextInt(4_001)));
                    int before = deliveries(ledger);
                    long t0 = System.nanoTime();
                    daemon.killAndRestart();
                    long restartMillis = (System.nanoTime() - t0) / 1_000_000;
                    Faults.await(Duration.ofSeconds(90), () -> where + ": the clients delivered nothing after the"
                            + " restart; " + daemon.describe(), () -> deliveries(ledger) > before);
                    ledger.assertNoViolations(where);
                    workers.assertHealthy(where);
                    System.out.printf("%s: restarted in %d ms, %d sent, %d delivered, %d failed calls%n", where,
                            restartMillis, ledger.sentCount(), deliveries(ledger), workers.expectedFailures());
                }
                String where = "after " + cycles + " cycles (-D" + Faults.SEED + "=" + seed + ")";
                producersStop.set(true);
                Faults.await(Duration.ofMinutes(3), () -> where + ": not everything delivered: " + ledger.lost()
                        + "\n" + ledger.summary(), ledger::allDelivered);
                try (Mikyu admin = Mikyu.dial(daemon.url())) {
                    Faults.await(Duration.ofMinutes(2), () -> where + ": left behind: " + leftBehind(admin),
                            () -> leftBehind(admin).isEmpty());
                }
                workers.stop();
                for (Connection c : connections) {
                    c.close();
                }
                connections.clear();
                try (Mikyu admin = Mikyu.dial(daemon.url())) {
                    Map<String, String> left = leftBehind(admin);
                    if (!left.isEmpty()) {
                        throw new AssertionError(where + ": left behind once the consumers closed: " + left);
                    }
                }
                ledger.assertNoViolations(where);
                ledger.assertNothingLost(where);
                workers.assertHealthy(where);
                System.out.printf("DaemonKillLoopTest: %d cycles, seed %d, %d s, %d daemon starts, %d failed calls%n%s",
                        cycles, seed, (System.nanoTime() - started) / 1_000_000_000, daemon.starts(),
                        workers.expectedFailures(), ledger.summary());
            } finally {
                workers.stop();
                for (Connection c : connections) {
                    try {
                        c.close();
                    } catch (JMSException ignored) {
                        // the daemon may be gone
                    }
                }
            }
        }
    }

    private static int deliveries(Ledger ledger) {
        return ledger.deliveredCount(AUTO) + ledger.deliveredCount(CLIENT) + ledger.deliveredCount(TX)
                + ledger.deliveredCount(DURABLE) + ledger.deliveredCount(SHARED);
    }

    private static Connection connect(String url, String clientId, List<Connection> connections)
            throws JMSException {
        Connection c = new MikyuConnectionFactory(url).createConnection();
        if (clientId != null) {
            c.setClientID(clientId);
        }
        connections.add(c);
        c.start();
        return c;
    }

    private void startProducers(String url, Ledger ledger, Workers workers, List<Connection> connections)
            throws JMSException {
        Session plain = connect(url, null, connections).createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageProducer producer = plain.createProducer(null);
        producer.setDeliveryMode(DeliveryMode.PERSISTENT);
        List<jakarta.jms.Destination> targets = List.of(plain.createQueue(AUTO), plain.createQueue(CLIENT),
                plain.createTopic(TOPIC));
        List<String[]> streams = List.of(new String[]{AUTO}, new String[]{CLIENT}, new String[]{DURABLE, SHARED});
        AtomicLong plainSeq = new AtomicLong();
        workers.start("producer", () -> {
            if (producersStop.get()) {
                Faults.pause(RECEIVE);
                return;
            }
            long n = plainSeq.getAndIncrement();
            int k = (int) (n % targets.size());
            String id = "p-" + n;
            Message m = plain.createTextMessage(id);
            m.setStringProperty(ID, id);
            try {
                producer.send(targets.get(k), m);
                ledger.sent(id, streams.get(k));
            } catch (JMSException e) {
                ledger.maybeSent(id, streams.get(k));
                workers.expectedFailure();
            }
            Faults.pause(Duration.ofMillis(5));
        });

        Session tx = connect(url, null, connections).createSession(true, Session.SESSION_TRANSACTED);
        MessageProducer txProducer = tx.createProducer(tx.createQueue(TX));
        txProducer.setDeliveryMode(DeliveryMode.PERSISTENT);
        AtomicLong txSeq = new AtomicLong();
        workers.start("transacted producer", () -> {
            if (producersStop.get()) {
                Faults.pause(RECEIVE);
                return;
            }
            List<String> ids = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    String id = "t-" + txSeq.getAndIncrement();
                    ids.add(id);
                    Message m = tx.createTextMessage(id);
                    m.setStringProperty(ID, id);
                    txProducer.send(m);
                }
                tx.commit();
                ids.forEach(id -> ledger.sent(id, TX));
            } catch (TransactionRolledBackException e) {
                ids.forEach(id -> ledger.rolledBack(id, TX));
                workers.expectedFailure();
            } catch (JMSException e) {
                ids.forEach(id -> ledger.maybeSent(id, TX));
                workers.expectedFailure();
                rollbackQuietly(tx);
            }
            Faults.pause(Duration.ofMillis(10));
        });
    }

    private static void rollbackQuietly(Session session) {
        try {
            session.rollback();
        } catch (JMSException ignored) {
            // the broker may still be away: the transaction is left to it
        }
    }

    private static void startConsumers(String url, Ledger ledger, Workers workers, List<Connection> connections)
            throws JMSException {
        Session auto = connect(url, null, connections).createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer autoConsumer = auto.createConsumer(auto.createQueue(AUTO));
        workers.start("auto consumer", () -> receiveOne(autoConsumer, AUTO, ledger, workers));

        Session client = connect(url, null, connections).createSession(false, Session.CLIENT_ACKNOWLEDGE);
        MessageConsumer clientConsumer = client.createConsumer(client.createQueue(CLIENT));
        workers.start("client-acknowledge consumer", settlingEvery(5, clientConsumer, CLIENT, ledger, workers,
                Message::acknowledge));

        Session tx = connect(url, null, connections).createSession(true, Session.SESSION_TRANSACTED);
        MessageConsumer txConsumer = tx.createConsumer(tx.createQueue(TX));
        workers.start("transacted consumer", settlingEvery(4, txConsumer, TX, ledger, workers, last -> {
            try {
                tx.commit();
            } catch (JMSException e) {
                rollbackQuietly(tx);
                throw e;
            }
        }));

        Session durable = connect(url, "fkdurable", connections).createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic topic = durable.createTopic(TOPIC);
        MessageConsumer durableConsumer = durable.createDurableSubscriber(topic, "durable");
        workers.start("durable subscriber", () -> receiveOne(durableConsumer, DURABLE, ledger, workers));

        for (int i = 1; i <= 2; i++) {
            Session shared = connect(url, null, connections).createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer sharedConsumer = shared.createSharedDurableConsumer(topic, "shared");
            workers.start("shared subscriber " + i, () -> receiveOne(sharedConsumer, SHARED, ledger, workers));
        }
    }

    /** AUTO_ACKNOWLEDGE: the acknowledgement's outcome is not known to the application, so nothing is settled. */
    private static void receiveOne(MessageConsumer consumer, String stream, Ledger ledger, Workers workers)
            throws Exception {
        try {
            Message m = consumer.receive(RECEIVE.toMillis());
            if (m != null) {
                record(m, stream, ledger);
            }
        } catch (JMSException e) {
            workers.expectedFailure();
            Faults.pause(RECEIVE);
        }
    }

    /** Receives up to {@code every} messages, then settles them (acknowledge or commit); settled if it returned. */
    private static Workers.Step settlingEvery(int every, MessageConsumer consumer, String stream, Ledger ledger,
                                              Workers workers, Settle settle) {
        Map<String, Integer> pending = new LinkedHashMap<>();
        Message[] last = new Message[1];
        return () -> {
            try {
                Message m = consumer.receive(RECEIVE.toMillis());
                if (m != null) {
                    pending.put(m.getStringProperty(ID), m.getIntProperty("JMSXDeliveryCount"));
                    record(m, stream, ledger);
                    last[0] = m;
                }
                if (!pending.isEmpty() && (m == null || pending.size() >= every)) {
                    settle.settle(last[0]);
                    ledger.settled(stream, pending);
                    pending.clear();
                }
            } catch (JMSException e) {
                pending.clear();    // not settled: they come again (flagged) or were settled after all
                workers.expectedFailure();
                Faults.pause(RECEIVE);
            }
        };
    }

    /** Acknowledges or commits what a session received, up to and including {@code last}. */
    @FunctionalInterface
    private interface Settle {
        void settle(Message last) throws JMSException;
    }

    private static void record(Message m, String stream, Ledger ledger) throws JMSException {
        ledger.delivered(stream, m.getStringProperty(ID), m.getJMSRedelivered(),
                m.getIntProperty("JMSXDeliveryCount"));
    }

    /** Queues and subscriptions with anything unfinished, and dead-letter queues with anything in them. */
    private static Map<String, String> leftBehind(Mikyu admin) {
        Map<String, String> left = new LinkedHashMap<>();
        for (String q : admin.list(QueueKind.TASK)) {
            TaskCounts counts = admin.taskQueue(q).counts();
            if (counts.depth() != 0) {
                left.put(q, counts.toString());
            }
        }
        for (String group : admin.log(TOPIC).groups()) {
            TaskCounts counts = admin.log(TOPIC).sharedGroup(group, SharedGroupConfig.defaults()).counts();
            long lag = admin.log(TOPIC).sharedGroup(group, SharedGroupConfig.defaults()).lag();
            if (counts.depth() != 0 || lag != 0) {
                left.put(TOPIC + ":" + group, counts + ", lag " + lag);
            }
        }
        return left;
    }
}
