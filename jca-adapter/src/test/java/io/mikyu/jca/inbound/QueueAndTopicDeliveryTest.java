package io.mikyu.jca.inbound;

import io.mikyu.jca.testkit.TestEndpointFactory;
import io.mikyu.jca.testkit.TestEndpointFactory.Delivery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

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
        TestEndpointFactory mdb = new TestEndpointFactory(true, (m, tm) -> Thread.sleep(2));
        MikyuActivationSpec spec = Inbound.queue("orders");
        spec.setMaxSession(4);
        inbound.activate(mdb, spec);
        inbound.send("orders", numbered("o-", 200));

        Inbound.await(Duration.ofSeconds(30), () -> mdb.deliveries.size() >= 200, "200 deliveries");
        Thread.sleep(300);
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
        Inbound.await(Duration.ofSeconds(10), () -> mdb.deliveries.size() >= 1, "a delivery");
        assertThat(mdb.texts()).containsExactly("t-1");
    }

    @Test
    void aSelectorChoosesTheMessages() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(false, (m, tm) -> { });
        MikyuActivationSpec spec = Inbound.queue("sel");
        spec.setMessageSelector("JMSPriority > 5");
        inbound.activate(mdb, spec);
        inbound.send("sel", "low"); // priority 4
        Thread.sleep(700);
        assertThat(mdb.deliveries).isEmpty();
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
        Thread.sleep(500); // subscribed
        inbound.publish("prices", "p1", "p2");
        Inbound.await(Duration.ofSeconds(10), () -> mdb.deliveries.size() >= 2, "2 deliveries");
        inbound.ra.endpointDeactivation(mdb, spec);

        inbound.publish("prices", "p3", "p4");
        TestEndpointFactory again = new TestEndpointFactory(true, (m, tm) -> { });
        MikyuActivationSpec spec2 = Inbound.topic("prices");
        spec2.setSubscriptionDurability("Durable");
        spec2.setSubscriptionName("pricing");
        spec2.setClientId("pricing-app");
        inbound.activate(again, spec2);
        Inbound.await(Duration.ofSeconds(10), () -> again.deliveries.size() >= 2, "2 more deliveries");
        Thread.sleep(300);
        assertThat(mdb.texts()).containsExactly("p1", "p2");
        assertThat(again.texts()).containsExactly("p3", "p4");
    }

    @Test
    void aSharedSubscriptionSpreadsOverTheSessionsWithoutDuplicates() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(true, (m, tm) -> Thread.sleep(2));
        MikyuActivationSpec spec = Inbound.topic("events");
        spec.setShareSubscriptions(true);
        spec.setSubscriptionName("audit");
        spec.setMaxSession(4);
        inbound.activate(mdb, spec);
        Thread.sleep(700); // every session subscribed
        inbound.publish("events", numbered("e-", 150));

        Inbound.await(Duration.ofSeconds(30), () -> mdb.deliveries.size() >= 150, "150 deliveries");
        Thread.sleep(300);
        List<String> texts = mdb.texts();
        assertThat(texts).hasSize(150).doesNotHaveDuplicates();
        Set<String> threads = new HashSet<>();
        mdb.deliveries.forEach(d -> threads.add(d.thread()));
        assertThat(threads).hasSizeGreaterThan(1);
    }

    @Test
    void aDurableSubscriptionWithoutClientIdIsSharedByTheSessions() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(false, (m, tm) -> Thread.sleep(2));
        MikyuActivationSpec spec = Inbound.topic("ticks");
        spec.setSubscriptionDurability("Durable");
        spec.setSubscriptionName("ticker");
        spec.setMaxSession(3);
        inbound.activate(mdb, spec);
        Thread.sleep(700);
        inbound.publish("ticks", numbered("t-", 60));
        Inbound.await(Duration.ofSeconds(30), () -> mdb.deliveries.size() >= 60, "60 deliveries");
        Thread.sleep(300);
        assertThat(mdb.texts()).hasSize(60).doesNotHaveDuplicates();
    }
}
