package io.mikyu.broker.server;

import io.mikyu.broker.server.FaultProxy.Link;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskCounts;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fault campaign's network scenario: JMS clients over {@code tcp://}, with reconnect and heartbeats, reach a
 * broker through {@link FaultProxy} relays (one for the producers, one for the consumers) while PERSISTENT sends,
 * credits, acknowledgements and commits are in flight. Each cycle a seeded random schedule picks a fault
 * ({@link NetFault}), a relay and a moment; the fault is healed once the peers that must notice it have, traffic is
 * seen to go on, and once everything has settled the campaign's invariants are checked: every send that returned is
 * delivered, nothing committed is lost or comes back, every duplicate is flagged, every failed commit or
 * acknowledgement said what happened, heartbeats noticed a silent connection within three intervals, what the broker
 * buffered for a client that stopped reading stayed bounded while others were served, and no lease, stream or
 * buffered byte is left behind.
 *
 * <p>{@code -Dmikyu.faults.cycles=N} (default 5; the {@code faults} profile: 100), {@code -Dmikyu.faults.seed=S}
 * repeats a run (the seed is in every failure message).
 */
@Tag("faults")
@Timeout(value = 90, unit = TimeUnit.MINUTES)
class NetworkFaultsTest {

    private static final int CYCLES = Integer.getInteger("mikyu.faults.cycles", 5);
    private static final long SEED = Long.getLong("mikyu.faults.seed", System.nanoTime());
    private static final Duration HEARTBEAT = Duration.ofMillis(500);
    /** Three silent intervals, plus room for a loaded machine to run the timer. */
    private static final long NOTICE_LIMIT_NANOS = HEARTBEAT.toNanos() * 3 + Duration.ofSeconds(3).toNanos();
    /**
     * The most the broker may hold for its clients: a connection above the high watermark is neither read nor
     * pushed to, plus answers already being built (32 workers, 1 MiB each for the reads below) and one stream batch.
     */
    private static final long OUTBOUND_BOUND = BrokerServer.WRITE_HIGH_WATERMARK + 32L * (1 << 20)
            + PushStream.MAX_BATCH_BYTES + (4 << 20);
    /** Short leases so that messages of an unknown commit come back within the cycle; reconnect for 30 s. */
    private static final String CLIENT_OPTIONS = "?reconnect=30s&heartbeat=500ms&connectTimeout=5s"
            + "&leaseMillis=3000&maxAttempts=100";
    private static final Duration SETTLE = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void jmsClientsKeepTheirPromisesThroughNetworkFaults() throws Exception {
        Random random = new Random(SEED);
        long started = System.nanoTime();
        Totals totals = new Totals();
        try (RunningBroker broker = new RunningBroker(dir.resolve("data"), RunningBroker.ENGINE,
                o -> o.withHeartbeat(HEARTBEAT));
             FaultProxy producerPath = new FaultProxy(broker.endpoint().port());
             FaultProxy consumerPath = new FaultProxy(broker.endpoint().port());
             Connection direct = new MikyuConnectionFactory(broker.uri()).createConnection();
             OutboundWatch outbound = new OutboundWatch(broker.server())) {
            direct.start();
            fillLog(broker.store().getOrCreateLog("net.big", LogQueueConfig.defaults()));
            for (int n = 1; n <= CYCLES; n++) {
                NetFault fault = NetFault.values()[random.nextInt(NetFault.values().length)];
                boolean atConsumers = random.nextBoolean();
                String where = "cycle " + n + " of " + CYCLES + " (seed " + SEED + "): " + fault + " on the "
                        + (atConsumers ? "consumers'" : "producers'") + " connection";
                cycle(n, fault, atConsumers ? consumerPath : producerPath, producerPath, consumerPath, broker,
                        direct, outbound, random, where, totals);
            }
        }
        System.out.printf("network faults: %d cycles, seed %d, %.1f s; %s%n", CYCLES, SEED,
                (System.nanoTime() - started) / 1e9, totals);
    }

    private void cycle(int n, NetFault fault, FaultProxy target, FaultProxy producerPath, FaultProxy consumerPath,
                       RunningBroker broker, Connection direct, OutboundWatch outbound, Random random,
                       String where, Totals totals) throws Exception {
        DeliveryLedger ledger = new DeliveryLedger();
        outbound.reset();
        try (JmsTraffic traffic = new JmsTraffic("c" + n + "-", producerPath.uri() + CLIENT_OPTIONS,
                consumerPath.uri() + CLIENT_OPTIONS, ledger);
             GreedyReader greedy = fault == NetFault.STOP_READING ? new GreedyReader(target.uri()) : null) {
            progress(ledger, 5 + random.nextInt(30), where + ": traffic before the fault");
            if (greedy != null) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(greedy.answers())
                        .as(where + ": the greedy reader's first answers")
                        .isGreaterThanOrEqualTo(GreedyReader.THREADS));
            }
            NetFault.Injected injected = fault.inject(target, random);
            assertThat(injected.links()).as(where + ": the fault hit a connection").isNotEmpty();
            if (fault == NetFault.STOP_READING) {
                probe(direct, where);
            }
            if (fault.endsLinks()) {
                await().atMost(SETTLE).untilAsserted(() -> assertThat(noticed(fault, injected.links()))
                        .as(where + ": the peers that must notice " + injected.what() + " did").isTrue());
                totals.noticed(fault, checkNoticed(fault, injected, where));
            } else {
                progress(ledger, 10 + random.nextInt(30), where + ": traffic under " + injected.what());
            }
            target.heal();
            await().atMost(SETTLE).untilAsserted(() -> assertThat(injected.links())
                    .as(where + ": every link hit closed on both sides after healing")
                    .allMatch(l -> !fault.endsLinks() || l.isClosed()));
            progress(ledger, 10, where + ": traffic after healing");
            traffic.stopProducing();
            TaskCounts[] last = new TaskCounts[1];
            await().atMost(SETTLE).untilAsserted(() -> {
                last[0] = broker.store().taskQueue(JmsTraffic.QUEUE).counts();
                assertThat(ledger.missing().isEmpty() && traffic.settled() && last[0].ready() == 0
                        && last[0].scheduled() == 0 && last[0].inFlight() == 0)
                        .as(() -> where + ": everything settled; missing " + ledger.missing() + ", queue " + last[0]
                                + ", consumers settled " + traffic.settled()).isTrue();
            });
            assertThat(traffic.crashed()).as(where + ": client threads that died").isEmpty();
        }
        await().atMost(SETTLE).untilAsserted(() -> assertThat(broker.server().openStreams() == 0
                && broker.server().pendingOutboundBytes() == 0)
                .as(() -> where + ": no stream (" + broker.server().openStreams() + ") nor buffered byte ("
                        + broker.server().pendingOutboundBytes() + ") left behind once the clients closed").isTrue());
        TaskCounts after = broker.store().taskQueue(JmsTraffic.QUEUE).counts();
        assertThat(after).as(where + ": no lease left behind").isEqualTo(new TaskCounts(0, 0, 0));
        ledger.outputsFound(drain(direct, JmsTraffic.OUTPUT));
        assertThat(outbound.peak()).as(where + ": bytes the broker held for slow readers").isLessThan(OUTBOUND_BOUND);
        assertThat(ledger.violations()).as(where + "; the failures the clients saw: " + ledger.failures())
                .isEmpty();
        totals.add(fault, ledger, outbound.peak());
    }

    /** Whether the peers that must notice the fault from their heartbeats (or, if none must, both) ended the links. */
    private static boolean noticed(NetFault fault, List<Link> links) {
        for (Link l : links) {
            boolean client = l.clientEndedNanos != 0;
            boolean brokerSide = l.brokerEndedNanos != 0;
            boolean done = fault.clientMustNotice || fault.brokerMustNotice
                    ? (!fault.clientMustNotice || client) && (!fault.brokerMustNotice || brokerSide)
                    : client && brokerSide;
            if (!done) {
                return false;
            }
        }
        return true;
    }

    /** The slowest notice, in nanoseconds after the injection; fails if one took longer than the heartbeats allow. */
    private static long checkNoticed(NetFault fault, NetFault.Injected injected, String where) {
        long slowest = 0;
        for (Link l : injected.links()) {
            if (fault.clientMustNotice) {
                slowest = Math.max(slowest, l.clientEndedNanos - injected.atNanos());
            }
            if (fault.brokerMustNotice) {
                slowest = Math.max(slowest, l.brokerEndedNanos - injected.atNanos());
            }
        }
        assertThat(slowest).as(where + ": nanoseconds until heartbeats noticed the silent connection (3 intervals"
                + " of " + HEARTBEAT.toMillis() + " ms, plus slack)").isLessThanOrEqualTo(NOTICE_LIMIT_NANOS);
        return slowest;
    }

    /** Waits until {@code k} more sends returned and {@code k} more messages were delivered. */
    private static void progress(DeliveryLedger ledger, int k, String what) throws Exception {
        long sent = ledger.sent.get();
        long delivered = ledger.delivered.get();
        await().atMost(SETTLE).untilAsserted(() -> assertThat(ledger.sent.get() >= sent + k
                && ledger.delivered.get() >= delivered + k)
                .as(() -> what + ": " + (ledger.sent.get() - sent) + " sends returned, "
                        + (ledger.delivered.get() - delivered) + " delivered; failures " + ledger.failures()).isTrue());
    }

    /** A round trip of a client on its own connection, straight to the broker: served while others misbehave. */
    private static void probe(Connection direct, String where) throws Exception {
        Session s = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
        try {
            Queue q = s.createQueue("net.probe");
            String text = "probe " + where;
            s.createProducer(q).send(s.createTextMessage(text));
            Message m = s.createConsumer(q).receive(30_000);
            assertThat(m).as(where + ": another client served while one stopped reading").isNotNull();
            assertThat(((TextMessage) m).getText()).isEqualTo(text);
        } finally {
            s.close();
        }
    }

    /** Every message of {@code queue}, straight from the broker. */
    private static List<String> drain(Connection direct, String queue) throws Exception {
        Session s = direct.createSession(false, Session.AUTO_ACKNOWLEDGE);
        try {
            MessageConsumer c = s.createConsumer(s.createQueue(queue));
            List<String> out = new ArrayList<>();
            Message m;
            while ((m = c.receive(out.isEmpty() ? 2_000 : 500)) != null) {
                out.add(((TextMessage) m).getText());
            }
            return out;
        } finally {
            s.close();
        }
    }

    /** 1 MiB of records, for the greedy reader to ask for again and again. */
    private static void fillLog(LogQueue log) {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 1024; i++) {
            entries.add(Entry.of(new byte[1024]));
        }
        log.appendBatch(entries);
    }

    /**
     * A client that asks for much and, once the relay stops reading for it, reads nothing: eight threads reading
     * the 1 MiB log {@code net.big} over and over through the faulty relay, without reconnecting.
     */
    private static final class GreedyReader implements AutoCloseable {
        static final int THREADS = 8;
        private final Mikyu client;
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicLong answers = new AtomicLong();
        private volatile boolean stop;

        GreedyReader(String uri) {
            client = Mikyu.dial(uri + "?reconnect=0&heartbeat=500ms&clientName=greedy");
            LogQueue log = client.log("net.big");
            for (int i = 0; i < THREADS; i++) {
                Thread t = new Thread(() -> {
                    try {
                        while (!stop) {
                            log.read(0, 100_000, 1 << 20);
                            answers.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        // its connection was dropped: what this reader is for
                    }
                }, "greedy-reader-" + i);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
        }

        long answers() {
            return answers.get();
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            client.close();
            for (Thread t : threads) {
                t.join(30_000);
            }
        }
    }

    /** What the cycles saw, for the results table. */
    private static final class Totals {
        private long messages;
        private long sent;
        private long duplicates;
        private long unflagged;
        private final Map<String, Integer> failures = new java.util.TreeMap<>();
        private final Map<String, String> failureSamples = new java.util.TreeMap<>();
        private long peakOutbound;
        private final Map<NetFault, Integer> cycles = new EnumMap<>(NetFault.class);
        private final Map<NetFault, Long> slowestNotice = new EnumMap<>(NetFault.class);

        void noticed(NetFault fault, long nanos) {
            slowestNotice.merge(fault, nanos, Math::max);
        }

        void add(NetFault fault, DeliveryLedger ledger, long outbound) {
            cycles.merge(fault, 1, Integer::sum);
            messages += ledger.messages();
            sent += ledger.sent.get();
            duplicates += ledger.duplicates();
            unflagged += ledger.unflaggedDuplicates();
            for (DeliveryLedger.Failure f : ledger.failures()) {
                String what = f.what().replaceAll(" (c[0-9]+-|\\[|the ).*", "");
                String kind = what + ": " + f.error().getClass().getSimpleName();
                failures.merge(kind, 1, Integer::sum);
                failureSamples.putIfAbsent(kind, String.valueOf(f.error().getMessage()));
            }
            peakOutbound = Math.max(peakOutbound, outbound);
        }

        @Override
        public String toString() {
            Map<NetFault, String> notice = new EnumMap<>(NetFault.class);
            slowestNotice.forEach((f, ns) -> notice.put(f, ns / 1_000_000 + " ms"));
            return messages + " messages delivered (" + sent + " sends returned), " + duplicates
                    + " delivered more than once, " + unflagged + " unflagged duplicates; failed calls reported "
                    + failures + "; faults " + cycles + "; slowest heartbeat notice " + notice
                    + "; peak bytes buffered for clients " + peakOutbound + "; what the failed calls said: "
                    + failureSamples;
        }
    }
}
