package io.mikyu.broker.server;

import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * JMS message groups in-process (vm://) and over a broker (tcp://, one connection per consumer, as from separate
 * JVMs): 1,000 groups over four queue consumers, one of them closed mid-run. Every message arrives, each group's
 * messages arrive in their send order, a group is with one consumer at a time (it moves only off the closed one),
 * the groups spread over all four, and each consumer's first message of a group says so
 * ({@code JMSXGroupFirstForConsumer}).
 */
@Timeout(180)
class JmsMessageGroupsTest {

    private static final int GROUPS = 1_000;
    private static final int PER_GROUP = 4;

    @TempDir
    Path dir;

    /** One received message, in the order the listeners saw them (a listener runs on its session's thread). */
    private record Received(int consumer, String group, int seq, boolean redelivered, boolean firstForConsumer) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "tcp"})
    void aThousandGroupsOverFourConsumersKeepTheirOrderWhenOneConsumerCloses(String transport) throws Exception {
        RunningBroker broker = transport.equals("tcp") ? new RunningBroker(dir.resolve("data")) : null;
        String url = (broker == null ? "vm://" + dir.resolve("data") : broker.uri()) + "?durability=async";
        List<Connection> connections = new ArrayList<>();
        List<Received> received = new ArrayList<>();
        try {
            for (int i = 0; i < 5; i++) {
                Connection c = new MikyuConnectionFactory(url).createConnection();
                connections.add(c);
            }
            Session ps = connections.get(4).createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue queue = ps.createQueue("orders");
            List<MessageConsumer> consumers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int consumer = i;
                Session s = connections.get(i).createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageConsumer mc = s.createConsumer(queue);
                mc.setMessageListener(m -> {
                    try {
                        Received r = new Received(consumer, m.getStringProperty("JMSXGroupID"),
                                m.getIntProperty("JMSXGroupSeq"), m.getJMSRedelivered(),
                                m.propertyExists("JMSXGroupFirstForConsumer")
                                        && m.getBooleanProperty("JMSXGroupFirstForConsumer"));
                        synchronized (received) {
                            received.add(r);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                consumers.add(mc);
                connections.get(i).start();
            }
            MessageProducer p = ps.createProducer(queue);
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            int total = GROUPS * PER_GROUP;
            for (int seq = 1; seq <= PER_GROUP; seq++) {
                for (int g = 0; g < GROUPS; g++) {
                    Message m = ps.createTextMessage("g" + g + ":" + seq);
                    m.setStringProperty("JMSXGroupID", "g" + g);
                    m.setIntProperty("JMSXGroupSeq", seq);
                    p.send(m);
                }
                if (seq == 2) {
                    // Mid-run: consumer 3 goes away with its groups, part-way through them.
                    await().atMost(Duration.ofSeconds(120)).until(() -> count(received) >= GROUPS);
                    consumers.get(3).close();
                }
            }
            await().atMost(Duration.ofSeconds(150)).until(() -> distinct(received) >= total);

            List<Received> all;
            synchronized (received) {
                all = List.copyOf(received);
            }
            Map<String, List<Integer>> order = new HashMap<>();
            Map<String, List<Integer>> owners = new HashMap<>();
            Set<String> firstSeen = new HashSet<>();
            Set<String> delivered = new HashSet<>();
            for (Received r : all) {
                String key = r.group() + ":" + r.seq();
                if (!delivered.add(key)) {
                    assertThat(r.redelivered()).as("a second delivery of %s is flagged redelivered", key).isTrue();
                    continue;
                }
                order.computeIfAbsent(r.group(), k -> new ArrayList<>()).add(r.seq());
                List<Integer> groupOwners = owners.computeIfAbsent(r.group(), k -> new ArrayList<>());
                if (groupOwners.isEmpty() || groupOwners.get(groupOwners.size() - 1) != r.consumer()) {
                    groupOwners.add(r.consumer());
                }
                assertThat(r.firstForConsumer()).as("JMSXGroupFirstForConsumer on %s for consumer %d", key,
                        r.consumer()).isEqualTo(firstSeen.add(r.consumer() + "/" + r.group()));
            }
            assertThat(delivered).hasSize(total);
            List<Integer> expected = List.of(1, 2, 3, 4);
            order.forEach((g, seqs) -> assertThat(seqs).as("order of %s", g).isEqualTo(expected));
            Set<Integer> used = new HashSet<>();
            owners.forEach((g, list) -> {
                used.addAll(list);
                // A group moves only off the closed consumer, and at most once.
                assertThat(list.size() == 1 || (list.size() == 2 && list.get(0) == 3))
                        .as("consumers of %s: %s", g, list).isTrue();
            });
            assertThat(used).containsExactlyInAnyOrder(0, 1, 2, 3);
        } finally {
            for (Connection c : connections) {
                c.close();
            }
            if (broker != null) {
                broker.close();
            }
        }
    }

    private static int count(List<Received> received) {
        synchronized (received) {
            return received.size();
        }
    }

    private static int distinct(List<Received> received) {
        Set<String> keys = new HashSet<>();
        synchronized (received) {
            for (Received r : received) {
                keys.add(r.group() + ":" + r.seq());
            }
        }
        return keys.size();
    }
}
