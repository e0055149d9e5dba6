package io.mikyu.broker.server;

import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.ClaimedException;
import io.mikyu.engine.Mikyu;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Claims on a broker hold across connections, whatever process they come from, and end with the connection that
 * took them: what makes JMS client IDs and durable subscriptions exclusive across JVMs.
 */
@Timeout(60)
class RemoteClaimsTest {

    @TempDir
    Path dir;

    @Test
    void aClaimHeldByOneConnectionIsRefusedToAnother() {
        try (RunningBroker broker = new RunningBroker(dir)) {
            Mikyu a = broker.dial();
            Mikyu b = broker.dial();
            Claim held = a.claim("jobs-owner", ClaimMode.EXCLUSIVE);
            assertThatThrownBy(() -> b.claim("jobs-owner", ClaimMode.EXCLUSIVE))
                    .isInstanceOf(ClaimedException.class);
            assertThat(b.claimHolders("jobs-owner")).isEqualTo(1);
            held.release();
            b.claim("jobs-owner", ClaimMode.EXCLUSIVE);
        }
    }

    @Test
    void aConnectionThatEndsGivesItsClaimsUp() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            Mikyu a = Mikyu.dial(broker.uri());
            a.claim("jobs-owner", ClaimMode.EXCLUSIVE);
            a.claim("readers", ClaimMode.SHARED);
            Mikyu b = broker.dial();
            assertThat(b.claimHolders("readers")).isEqualTo(1);
            a.close(); // as if its process died: the broker sees the connection end
            awaitHolders(b, "jobs-owner", 0);
            awaitHolders(b, "readers", 0);
            b.claim("jobs-owner", ClaimMode.EXCLUSIVE);
        }
    }

    @Test
    void aJmsClientIdInUseOverTheBrokerIsRefusedToAConnectionOfAnotherClient() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            // Another process's JMS connection, as the broker sees it: its own network connection and claim.
            Mikyu otherProcess = broker.dial();
            Claim other = otherProcess.claim("jms/clientID/billing", ClaimMode.EXCLUSIVE);
            MikyuConnectionFactory cf = new MikyuConnectionFactory(broker.uri());
            try (Connection c = cf.createConnection()) {
                assertThatThrownBy(() -> c.setClientID("billing")).isInstanceOf(InvalidClientIDException.class)
                        .hasMessageContaining("billing");
            }
            other.release();
            try (Connection c = cf.createConnection()) {
                c.setClientID("billing");
                assertThat(otherProcess.claimHolders("jms/clientID/billing")).isEqualTo(1);
            }
            awaitHolders(otherProcess, "jms/clientID/billing", 0);
        }
    }

    @Test
    void aDurableSubscriptionWithAConsumerInAnotherProcessRefusesASecondOne() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            MikyuConnectionFactory cf = new MikyuConnectionFactory(broker.uri());
            try (Connection first = cf.createConnection()) {
                first.setClientID("audit");
                Session s = first.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Topic events = s.createTopic("events");
                MessageConsumer active = s.createDurableSubscriber(events, "trail");
                // The subscription's claim is visible to any connection of the broker.
                Mikyu otherProcess = broker.dial();
                String claim = "jms/subscription/" + durableGroupOf(otherProcess, "events");
                assertThat(otherProcess.claimHolders(claim)).isEqualTo(1);
                assertThatThrownBy(() -> otherProcess.claim(claim, ClaimMode.EXCLUSIVE))
                        .isInstanceOf(ClaimedException.class);
                active.close();
                assertThat(otherProcess.claimHolders(claim)).isZero();
            }
        }
    }

    @Test
    void aSharedSubscriptionOnABrokerIsDeletedWithItsLastConsumerAnywhere() throws Exception {
        try (RunningBroker broker = new RunningBroker(dir)) {
            // Two factories with different client names: two network connections, as two processes would have.
            MikyuConnectionFactory here = new MikyuConnectionFactory(broker.uri() + "?clientName=here");
            MikyuConnectionFactory there = new MikyuConnectionFactory(broker.uri() + "?clientName=there");
            Mikyu admin = broker.dial();
            try (Connection a = here.createConnection(); Connection b = there.createConnection()) {
                Session sa = a.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Session sb = b.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Topic prices = sa.createTopic("prices");
                MessageConsumer ca = sa.createSharedConsumer(prices, "ticker");
                MessageConsumer cb = sb.createSharedConsumer(sb.createTopic("prices"), "ticker");
                assertThat(admin.log("prices").groups()).hasSize(1);
                ca.close();
                assertThat(admin.log("prices").groups()).as("one consumer is left").hasSize(1);
                cb.close();
                assertThat(admin.log("prices").groups()).as("the last consumer closed").isEmpty();
            }
        }
    }

    private static String durableGroupOf(Mikyu m, String topic) {
        return m.log(topic).groups().stream().filter(g -> g.contains("trail")).findFirst()
                .orElseThrow(() -> new AssertionError("no group for the subscription"));
    }

    private static void awaitHolders(Mikyu m, String name, int expected) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(m.claimHolders(name))
                .as("holders of the claim %s", name).isEqualTo(expected));
    }
}
