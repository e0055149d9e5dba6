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
import java.util.Comparator;
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
    private final List<Delivery> deliveries = new ArrayList<>();
    /** Every consumer JVM started, to show their warnings when a check fails. */
    private final List<ChildProcess> started = new ArrayList<>();

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
        ChildProcess child = ChildProcess.startJava(dir.resolve("consumers"), name, List.of(),
                GroupConsumerMain.class.getName(), List.of(url, QUEUE), line -> parse(name, line));
        started.add(child);
        return child;
    }

    /** The warnings the consumer JVMs logged (a lease that ended before its ack, say): shown with a failure. */
    private String consumerWarnings() {
        StringBuilder b = new StringBuilder();
        for (ChildProcess c : started) {
            for (String line : c.stderrText().split("\n")) {
                if (line.contains("WARN")) {
                    b.append(c.name()).append(": ").append(line).append('\n');
                }
            }
        }
        return b.toString();
    }

    /**
     * One delivery as a consumer JVM reported it: who had it, and when it was handed to its listener (that JVM's wall
     * clock; the JVMs share the host's) and read here.
     */
    private record Delivery(String group, int seq, boolean redelivered, int count, String consumer, long handedAt,
                            long readAt) {
        @Override
        public String toString() {
            return group + ":" + seq + " (JMSRedelivered " + redelivered + ", JMSXDeliveryCount " + count + ") to "
                    + consumer + " at " + handedAt % 1_000_000 + " ms, read at " + readAt % 1_000_000 + " ms";
        }
    }

    private void parse(String consumer, String line) {
        if (!line.endsWith(" $") || !line.startsWith("D ")) {
            return;
        }
        String[] f = line.substring(2, line.length() - 2).split(" ");
        if (f.length == 5) {
            Delivery d = new Delivery(f[0], Integer.parseInt(f[1]), Boolean.parseBoolean(f[2]), Integer.parseInt(f[3]),
                    consumer, Long.parseLong(f[4]), System.currentTimeMillis());
            synchronized (deliveries) {
                deliveries.add(d);
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
            for (Delivery d : deliveries) {
                highest.merge(d.group(), d.seq(), Math::max);
            }
        }
        return highest.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * Per group, in the order the consumers were handed them: a message seen for the first time is the next of its
     * group (none skipped, none early); one seen again is flagged redelivered, with a delivery count above 1.
     * {@code complete}: every message sent was delivered.
     *
     * <p>In handing order, not in the order the lines were read: each JVM's output has a reader thread of its own, and
     * on a loaded machine one may read a line seconds after another read a later line of another JVM. Lines of one
     * JVM keep their order (a stable sort).
     */
    private void check(int[] nextSeq, boolean complete, String where) {
        Map<String, Integer> next = new HashMap<>();
        Map<String, Delivery> first = new HashMap<>();
        List<String> violations = new ArrayList<>();
        List<Delivery> handed;
        synchronized (deliveries) {
            handed = new ArrayList<>(deliveries);
        }
        handed.sort(Comparator.comparingLong(Delivery::handedAt));
        for (Delivery d : handed) {
            int expected = next.getOrDefault(d.group(), 1);
            if (d.seq() == expected) {
                next.put(d.group(), expected + 1);
                first.put(d.group() + ":" + d.seq(), d);
            } else if (d.seq() > expected) {
                violations.add(d + " before " + d.group() + ":" + expected);
            } else if (!d.redelivered() || d.count() <= 1) {
                violations.add(d + " again, not flagged redelivered; first " + first.get(d.group() + ":" + d.seq()));
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
            System.out.println("GroupConsumerKillTest: warnings of the consumer JVMs:\n" + consumerWarnings());
            throw new AssertionError(where + ": " + violations.size() + " violations, first "
                    + violations.subList(0, Math.min(20, violations.size())));
        }
    }
}
