package io.mikyu.broker.faults;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskCounts;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Fault scenario 6, the SIGSTOP half: a consumer holds messages (CLIENT_ACKNOWLEDGE, received, not acknowledged)
 * when the daemon is stopped with SIGSTOP for longer than the leases and the heartbeats, then resumed with SIGCONT.
 * The leases ended while nobody could renew them, so the messages are delivered again, flagged: on odd cycles to a
 * consumer on another connection, on even cycles to the same consumer once its connection is back. The holder's late
 * {@code acknowledge()} then fails with a {@code JMSException} naming the ended leases instead of appearing to
 * succeed, and nothing is left in the queue or leased.
 */
@Tag("faults")
class DaemonStopTest {

    private static final int DEFAULT_CYCLES = 2;
    private static final int HELD = 5;
    private static final String QUEUE = "st.work";
    private static final long LEASE_MILLIS = 2_000;
    private static final long HEARTBEAT_MILLIS = 1_000;
    private static final String OPTIONS = "leaseMillis=" + LEASE_MILLIS + "&heartbeat=" + HEARTBEAT_MILLIS
            + "ms&reconnect=300s&connectTimeout=2s";

    @TempDir
    Path dir;

    @Test
    void messagesHeldThroughASigstopLongerThanTheirLeasesComeBackFlaggedAndTheLateAcknowledgementFails() {
        int cycles = Faults.cycles(DEFAULT_CYCLES);
        assertTimeoutPreemptively(Faults.backstop(cycles),
                () -> run(cycles, Faults.seed()));
    }

    private void run(int cycles, long seed) throws Exception {
        Random random = new Random(seed);
        Ledger ledger = new Ledger();
        long started = System.nanoTime();
        int lateAcksRefused = 0;
        try (FaultDaemon daemon = FaultDaemon.start(dir.resolve("daemon"), Faults.DAEMON_STOP_PORT, "--heartbeat",
                HEARTBEAT_MILLIS + "ms")) {
            String url = daemon.url() + "?" + OPTIONS;
            try (Connection producing = new MikyuConnectionFactory(url).createConnection();
                 Connection holding = new MikyuConnectionFactory(url).createConnection();
                 Connection other = new MikyuConnectionFactory(url).createConnection()) {
                holding.start();
                other.start();
                Session ps = producing.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = ps.createProducer(ps.createQueue(QUEUE));
                producer.setDeliveryMode(DeliveryMode.PERSISTENT);
                for (int cycle = 1; cycle <= cycles; cycle++) {
                    String where = "cycle " + cycle + " of " + cycles + " (-D" + Faults.SEED + "=" + seed + ")";
                    boolean toOther = cycle % 2 == 1;
                    List<String> ids = new ArrayList<>();
                    for (int i = 0; i < HELD; i++) {
                        String id = "c" + cycle + "-" + i;
                        Message m = ps.createTextMessage(id);
                        m.setStringProperty(PoisonedConsumerMain.ID, id);
                        producer.send(m);
                        ledger.sent(id, QUEUE);
                        ids.add(id);
                    }
                    Session holder = holding.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                    MessageConsumer held = holder.createConsumer(holder.createQueue(QUEUE));
                    Message last = null;
                    for (int i = 0; i < HELD; i++) {
                        last = held.receive(30_000);
                        if (last == null) {
                            throw new AssertionError(where + ": the holder received " + i + " of " + HELD);
                        }
                        record(last, ledger);
                    }

                    // longer than a lease and than the three heartbeats after which a silent peer is dropped
                    Duration stoppedFor = Duration.ofMillis(Math.max(LEASE_MILLIS, 3 * HEARTBEAT_MILLIS) + 1_500
                            + random.nextInt(2_000));
                    daemon.sigstop();
                    Faults.pause(stoppedFor);
                    daemon.sigcont();

                    Session otherSession = toOther ? other.createSession(false, Session.AUTO_ACKNOWLEDGE) : null;
                    MessageConsumer receiver = toOther
                            ? otherSession.createConsumer(otherSession.createQueue(QUEUE)) : held;
                    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                    while (!ids.stream().allMatch(id -> redelivered(ledger, id))) {
                        if (System.nanoTime() > deadline) {
                            throw new AssertionError(where + ": after a SIGSTOP of " + stoppedFor + " not every"
                                    + " held message came again to the " + (toOther ? "other" : "same")
                                    + " consumer within 60 s\n" + ledger.summary() + daemon.describe());
                        }
                        Message m = receiver.receive(1_000);
                        if (m != null) {
                            record(m, ledger);
                        }
                    }
                    try {
                        last.acknowledge();
                        throw new AssertionError(where + ": the holder's acknowledgement of messages whose leases"
                                + " ended during the SIGSTOP (delivered again since) returned");
                    } catch (JMSException expected) {
                        if (!String.valueOf(expected.getMessage()).contains("lease")) {
                            throw new AssertionError(where + ": the late acknowledgement failed without naming the"
                                    + " ended leases: " + expected, expected);
                        }
                        lateAcksRefused++;
                    }
                    if (!toOther) {
                        last.acknowledge();     // now only what came again is the session's: acknowledged
                    }
                    if (otherSession != null) {
                        otherSession.close();
                    }
                    holder.close();
                    Faults.await(Duration.ofSeconds(60), () -> where + ": left in the queue " + counts(daemon),
                            () -> counts(daemon).depth() == 0);
                    ledger.assertNoViolations(where);
                    System.out.printf("%s: stopped %d ms, %d redelivered to the %s consumer%n", where,
                            stoppedFor.toMillis(), HELD, toOther ? "other" : "same");
                }
            }
            String where = "after " + cycles + " cycles (-D" + Faults.SEED + "=" + seed + ")";
            ledger.assertNoViolations(where);
            ledger.assertNothingLost(where);
            System.out.printf("DaemonStopTest: %d cycles, seed %d, %d s, %d late acknowledgements refused%n%s",
                    cycles, seed, (System.nanoTime() - started) / 1_000_000_000, lateAcksRefused, ledger.summary());
        }
    }

    private static boolean redelivered(Ledger ledger, String id) {
        return ledger.deliveryCount(QUEUE, id) >= 2;
    }

    private static void record(Message m, Ledger ledger) throws JMSException {
        ledger.delivered(QUEUE, m.getStringProperty(PoisonedConsumerMain.ID), m.getJMSRedelivered(),
                m.getIntProperty("JMSXDeliveryCount"));
    }

    private static TaskCounts counts(FaultDaemon daemon) {
        try (Mikyu admin = Mikyu.dial(daemon.url())) {
            return admin.taskQueue(QUEUE).counts();
        }
    }
}
