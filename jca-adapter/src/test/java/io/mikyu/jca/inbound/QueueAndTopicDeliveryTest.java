package io.mikyu.jca.inbound;

import io.mikyu.jca.testkit.SessionsMeet;
import io.mikyu.jca.testkit.TestEndpointFactory;
import io.mikyu.jca.testkit.TestEndpointFactory.Delivery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Message-driven beans on a queue, a durable subscription and a shared subscription. */
@Timeout(60)
class QueueAndTopicDeliveryTest {

    @TempDir
    Path data;
    private Inbound inbound;

    @BeforeEach
    void open() throws Exception {
        inbound = new Inbound(data);
    }

    @AfterEach
    void close() throws Exception {
        inbound.close();
    }

    private static String[] numbered(String prefix, int n) {
        return IntStream.range(0, n).mapToObj(i -> prefix + i).toArray(String[]::new);
    }

    @Test
    void aQueueIsDeliveredOnceEachOverSeveralSessionsInTheirTransactions() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(true, new SessionsMeet(2, Inbound.AT_MOST));
        MikyuActivationSpec spec = Inbound.queue("orders");
        spec.setMaxSession(4);
        inbound.activate(mdb, spec);
        inbound.awaitSessions(4);
        inbound.send("orders", numbered("o-", 200));

        await("200 deliveries").atMost(Inbound.AT_MOST).until(() -> mdb.deliveries.size() >= 200);
        inbound.ra.endpointDeactivation(mdb, spec); // returns once the deliveries in progress ended: none come later
        assertThat(mdb.texts()).hasSize(200).doesNotHaveDuplicates();
        assertThat(mdb.deliveries).allMatch(Delivery::inTransaction).noneMatch(Delivery::redelivered);
        Set<String> threads = new HashSet<>();
        mdb.deliveries.forEach(d -> threads.add(d.thread()));
        assertThat(threads).as("several sessions delivered").hasSizeGreaterThan(1);
        assertThat(inbound.drain("orders", 300)).as("every delivery committed").isEmpty();
    }

    @Test
    void aDestinationMayBeGivenInItsTextFormAsOpenLibertyPassesIt() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(false, (m, tm) -> { });
        MikyuActivationSpec spec = Inbound.queue("ignored");
        spec.setDestination("queue://texts");
        spec.setDestinationType(null);
        inbound.activate(mdb, spec);
        inbound.send("texts", "t-1");
        await("a delivery").atMost(Inbound.AT_MOST).until(() -> mdb.deliveries.size() >= 1);
        assertThat(mdb.texts()).containsExactly("t-1");
    }

    @Test
    void aSelectorChoosesTheMessages() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(false, (m, tm) -> { });
        MikyuActivationSpec spec = Inbound.queue("sel");
        spec.setMessageSelector("JMSPriority > 5");
        spec.setMaxSession(1);
        inbound.activate(mdb, spec);
        inbound.awaitSessions(1);
        inbound.send("sel", "low"); // priority 4
        inbound.send("sel", 9, "high");
        await("the message the selector chooses").atMost(Inbound.AT_MOST).until(() -> !mdb.deliveries.isEmpty());
        assertThat(inbound.browse("sel")).as("left waiting, not leased to the bean's consumer")
                .containsExactly("low");
        inbound.ra.endpointDeactivation(mdb, spec);
        assertThat(mdb.texts()).as("delivered, the one before it passed over").containsExactly("high");
        assertThat(Inbound.texts(inbound.drain("sel", 1_000))).containsExactly("low");
    }

    @Test
    void aDurableSubscriptionKeepsWhatIsPublishedWhileTheBeanIsDeactivated() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(true, (m, tm) -> { });
        MikyuActivationSpec spec = Inbound.topic("prices");
        spec.setSubscriptionDurability("Durable");
        spec.setSubscriptionName("pricing");
        spec.setClientId("pricing-app");
        inbound.activate(mdb, spec);
        inbound.awaitSessions(1); // subscribed
        inbound.publish("prices", "p1", "p2");
        await("2 deliveries").atMost(Inbound.AT_MOST).until(() -> mdb.deliveries.size() >= 2);
        inbound.ra.endpointDeactivation(mdb, spec);

        inbound.publish("prices", "p3", "p4");
        TestEndpointFactory again = new TestEndpointFactory(true, (m, tm) -> { });
        MikyuActivationSpec spec2 = Inbound.topic("prices");
        spec2.setSubscriptionDurability("Durable");
        spec2.setSubscriptionName("pricing");
        spec2.setClientId("pricing-app");
        inbound.activate(again, spec2);
        await("2 more deliveries").atMost(Inbound.AT_MOST).until(() -> again.deliveries.size() >= 2);
        inbound.ra.endpointDeactivation(again, spec2);
        assertThat(mdb.texts()).containsExactly("p1", "p2");
        assertThat(again.texts()).containsExactly("p3", "p4");
    }

    @Test
    void aSharedSubscriptionSpreadsOverTheSessionsWithoutDuplicates() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(true, new SessionsMeet(2, Inbound.AT_MOST));
        MikyuActivationSpec spec = Inbound.topic("events");
        spec.setShareSubscriptions(true);
        spec.setSubscriptionName("audit");
        spec.setMaxSession(4);
        inbound.activate(mdb, spec);
        inbound.awaitSessions(4); // every session subscribed
        inbound.publish("events", numbered("e-", 150));

        await("150 deliveries").atMost(Inbound.AT_MOST).until(() -> mdb.deliveries.size() >= 150);
        inbound.ra.endpointDeactivation(mdb, spec);
        List<String> texts = mdb.texts();
        assertThat(texts).hasSize(150).doesNotHaveDuplicates();
        Set<String> threads = new HashSet<>();
        mdb.deliveries.forEach(d -> threads.add(d.thread()));
        assertThat(threads).hasSizeGreaterThan(1);
    }

    @Test
    void aDurableSubscriptionWithoutClientIdIsSharedByTheSessions() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(false, new SessionsMeet(2, Inbound.AT_MOST));
        MikyuActivationSpec spec = Inbound.topic("ticks");
        spec.setSubscriptionDurability("Durable");
        spec.setSubscriptionName("ticker");
        spec.setMaxSession(3);
        inbound.activate(mdb, spec);
        inbound.awaitSessions(3);
        inbound.publish("ticks", numbered("t-", 60));
        await("60 deliveries").atMost(Inbound.AT_MOST).until(() -> mdb.deliveries.size() >= 60);
        inbound.ra.endpointDeactivation(mdb, spec);
        assertThat(mdb.texts()).hasSize(60).doesNotHaveDuplicates();
        Set<String> threads = new HashSet<>();
        mdb.deliveries.forEach(d -> threads.add(d.thread()));
        assertThat(threads).as("sessions that delivered").hasSizeGreaterThan(1);
    }
}
