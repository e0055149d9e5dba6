package io.mikyu.broker.faults;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Message groups while consumer JVMs are killed: four consumer JVMs on one queue of a {@code mikyu daemon}; each
 * cycle sends {@value #PER_CYCLE} messages over {@value #GROUPS} groups (each group's sequence going on from cycle to
 * cycle), then kills a random consumer with SIGKILL mid-run and starts another. At the end every message was
 * delivered; per group, each message first came after every earlier one (a group moves from a killed consumer only
 * once its leases ended, and what comes back comes first), and every second delivery was flagged redelivered.
 */
@Tag("faults")
class GroupConsumerKillTest {

    private static final int DEFAULT_CYCLES = 3;
    private static final int CONSUMERS = 4;
    private static final int GROUPS = 50;
    private static final int PER_CYCLE = 200;
    /** A port of its own (the message-groups range), so it may run beside the other scenarios. */
    private static final int PORT = Integer.getInteger("mikyu.faults.groupsPort", 21370);
    private static final String QUEUE = "grouped";
    private static final String OPTIONS = "maxAttempts=50&leaseMillis=3000&prefetch=8";

    @TempDir
    Path dir;

    /** Every line every consumer printed, as parsed, in the order the test read them. */
    private final List<String[]> deliveries = new ArrayList<>();

    @Test
    void everyGroupKeepsItsOrderWhileConsumerJvmsAreKilled() {
        int cycles = Faults.cycles(DEFAULT_CYCLES);
        assertTimeoutPreemptively(Faults.backstop(cycles), () -> run(cycles, Faults.seed()));
    }

    private void run(int cycles, long seed) throws Exception {
        Random random = new Random(seed);
        int[] nextSeq = new int[GROUPS];
        int sent = 0;
        int kills = 0;
        long started = System.nanoTime();
        try (FaultDaemon daemon = FaultDaemon.start(dir.resolve("daemon"), PORT);
             Connection producing = new MikyuConnectionFactory(daemon.url() + "?" + OPTIONS).createConnection()) {
            String url = daemon.url() + "?" + OPTIONS;
            Session session = producing.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(QUEUE));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            ChildProcess[] consumers = new ChildProcess[CONSUMERS];
            int[] starts = new int[1];
            try {
                for (int i = 0; i < CONSUMERS; i++) {
                    consumers[i] = start(url, i, starts);
                }
                for (ChildProcess c : consumers) {
                    c.awaitLine("ready", Duration.ofSeconds(120));
                }
                for (int cycle = 1; cycle <= cycles; cycle++) {
                    for (int i = 0; i < PER_CYCLE; i++) {
                        int g = random.nextInt(GROUPS);
                        Message m = session.createTextMessage("g" + g);
                        m.setStringProperty("JMSXGroupID", "g" + g);
                        m.setIntProperty("JMSXGroupSeq", ++nextSeq[g]);
                        producer.send(m);
                        sent++;
                    }
                    Faults.pause(Duration.ofMillis(200 + random.nextInt(800)));
                    int victim = random.nextInt(CONSUMERS);
                    consumers[victim].kill();
                    kills++;
                    consumers[victim].close();
                    consumers[victim] = start(url, victim, starts);
                    consumers[victim].awaitLine("ready", Duration.ofSeconds(120));
                    String where = "cycle " + cycle + " of " + cycles + " (-D" + Faults.SEED + "=" + seed + ")";
                    check(nextSeq, false, where);
                    System.out.printf("%s: %d sent, %d delivered, %d killed%n", where, sent, deliveredCount(), kills);
                }
                String where = "after " + cycles + " cycles (-D" + Faults.SEED + "=" + seed + ")";
                int total = sent;
                Faults.await(Duration.ofMinutes(4), () -> where + ": not all delivered: " + firstDeliveries()
                        + " of " + total, () -> firstDeliveries() == total);
                check(nextSeq, true, where);
                System.out.printf("GroupConsumerKillTest: %d cycles, seed %d, %d s, %d sent, %d deliveries, %d"
                                + " consumer JVMs killed%n", cycles, seed,
                        (System.nanoTime() - started) / 1_000_000_000, sent, deliveredCount(), kills);
            } finally {
                for (ChildProcess c : consumers) {
                    if (c != null) {
                        c.close();
                    }
                }
            }
        }
    }

    private ChildProcess start(String url, int slot, int[] starts) throws Exception {
        starts[0]++;
        String name = "group-consumer-" + slot + "." + starts[0];
        return ChildProcess.startJava(dir.resolve("consumers"), name, List.of(), GroupConsumerMain.class.getName(),
                List.of(url, QUEUE), this::parse);
    }

    private void parse(String line) {
        if (!line.endsWith(" $") || !line.startsWith("D ")) {
            return;
        }
        String[] f = line.substring(2, line.length() - 2).split(" ");
        if (f.length == 3) {
            synchronized (deliveries) {
                deliveries.add(f);
            }
        }
    }

    private int deliveredCount() {
        synchronized (deliveries) {
            return deliveries.size();
        }
    }

    private int firstDeliveries() {
        Map<String, Integer> highest = new HashMap<>();
        synchronized (deliveries) {
            for (String[] d : deliveries) {
                highest.merge(d[0], Integer.parseInt(d[1]), Math::max);
            }
        }
        return highest.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * Per group: a message seen for the first time is the next of its group (none skipped, none early); one seen
     * again is flagged redelivered. {@code complete}: every message sent was delivered.
     */
    private void check(int[] nextSeq, boolean complete, String where) {
        Map<String, Integer> next = new HashMap<>();
        List<String> violations = new ArrayList<>();
        synchronized (deliveries) {
            for (String[] d : deliveries) {
                int seq = Integer.parseInt(d[1]);
                int expected = next.getOrDefault(d[0], 1);
                if (seq == expected) {
                    next.put(d[0], expected + 1);
                } else if (seq > expected) {
                    violations.add(d[0] + ":" + seq + " before " + d[0] + ":" + expected);
                } else if (!Boolean.parseBoolean(d[2])) {
                    violations.add(d[0] + ":" + seq + " again, not flagged redelivered");
                }
            }
        }
        if (complete) {
            for (int g = 0; g < nextSeq.length; g++) {
                if (next.getOrDefault("g" + g, 1) != nextSeq[g] + 1) {
                    violations.add("g" + g + ": " + (next.getOrDefault("g" + g, 1) - 1) + " of " + nextSeq[g]
                            + " delivered");
                }
            }
        }
        if (!violations.isEmpty()) {
            throw new AssertionError(where + ": " + violations.size() + " violations, first "
                    + violations.subList(0, Math.min(20, violations.size())));
        }
    }
}
