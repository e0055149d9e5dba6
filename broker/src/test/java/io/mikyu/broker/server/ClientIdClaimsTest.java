package io.mikyu.broker.server;

import io.mikyu.engine.AccessDeniedException;
import io.mikyu.engine.Claim;
import io.mikyu.engine.ClaimMode;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.security.PasswordHash;
import io.mikyu.engine.security.SecurityRealm;
import io.mikyu.jms.MikyuConnectionFactory;
import jakarta.jms.Connection;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * On a broker with users, a JMS client ID (and the durable subscriptions made under it) belongs to the users
 * allowed to use it: their own name and their roles' {@code clientIds} patterns. Nobody else can take it first and
 * lock its application out.
 */
@Timeout(60)
class ClientIdClaimsTest {

    @TempDir
    Path dir;

    RunningBroker broker;
    MikyuConnectionFactory cf;

    @BeforeEach
    void start() {
        SecurityRealm realm = SecurityRealm.from(MikyuConfig.load(null, Map.of(
                "users.billing.password", PasswordHash.hash("b-pass".toCharArray(), 1_000),
                "users.billing.roles", "apps",
                "users.mallory.password", PasswordHash.hash("m-pass".toCharArray(), 1_000),
                "users.mallory.roles", "others",
                "roles.apps.consume", "prices",
                "roles.apps.clientIds", "billing, billing-*",
                "roles.others.consume", "prices"), "test"));
        broker = new RunningBroker(dir, RunningBroker.ENGINE, o -> o.withRealm(realm));
        broker.store().createLog("prices");
        cf = new MikyuConnectionFactory(broker.uri() + "?reconnect=0");
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void anotherUserCannotTakeAClientIdAndLockItsApplicationOut() throws Exception {
        try (Connection mallory = cf.createConnection("mallory", "m-pass")) {
            assertThatThrownBy(() -> mallory.setClientID("billing"))
                    .isInstanceOf(JMSSecurityException.class)
                    .hasMessageContaining("user 'mallory' may not use client ID 'billing'");
            try (Connection billing = cf.createConnection("billing", "b-pass")) {
                billing.setClientID("billing");
                assertThat(billing.getClientID()).isEqualTo("billing");
            }
        }
    }

    @Test
    void aUserMayUseItsOwnNameAndTheClientIdsItsRolesGrant() throws Exception {
        try (Connection mallory = cf.createConnection("mallory", "m-pass");
             Connection billing = cf.createConnection("billing", "b-pass")) {
            mallory.setClientID("mallory");
            billing.setClientID("billing-eu");
            assertThat(mallory.getClientID()).isEqualTo("mallory");
            assertThat(billing.getClientID()).isEqualTo("billing-eu");
        }
    }

    @Test
    void aDurableSubscriptionUnderSomeoneElsesClientIdIsRefused() throws Exception {
        MikyuConnectionFactory forged = new MikyuConnectionFactory(broker.uri() + "?reconnect=0&clientID=billing");
        try (Connection mallory = forged.createConnection("mallory", "m-pass")) {
            Session s = mallory.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic prices = s.createTopic("prices");
            assertThatThrownBy(() -> s.createDurableSubscriber(prices, "invoices"))
                    .isInstanceOf(JMSSecurityException.class)
                    .hasMessageContaining("may not use client ID 'billing'");
        }
        try (Connection billing = forged.createConnection("billing", "b-pass")) {
            Session s = billing.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createDurableSubscriber(s.createTopic("prices"), "invoices").close();
        }
    }

    @Test
    void claimsUnderJmsAreTakenOnlyAsTheProviderTakesThem() {
        try (Mikyu mallory = Mikyu.dial(broker.uri() + "?connectTimeout=5s",
                Map.of("user", "mallory", "password", "m-pass"))) {
            assertThatThrownBy(() -> mallory.claim("jms/subscription/d.billing.invoices", ClaimMode.EXCLUSIVE))
                    .isInstanceOf(AccessDeniedException.class);
            // an exclusive hold on a shared subscription would shut its consumers out
            assertThatThrownBy(() -> mallory.claim("jms/subscription/sd.feed", ClaimMode.EXCLUSIVE))
                    .isInstanceOf(AccessDeniedException.class).hasMessageContaining("only shared");
            assertThatThrownBy(() -> mallory.claim("jms/subscription/sd.billing.feed", ClaimMode.SHARED))
                    .isInstanceOf(AccessDeniedException.class);
            assertThatThrownBy(() -> mallory.claim("jms/anything", ClaimMode.SHARED))
                    .isInstanceOf(AccessDeniedException.class);
            Claim shared = mallory.claim("jms/subscription/sd.feed", ClaimMode.SHARED);
            Claim own = mallory.claim("jms/subscription/d.mallory.invoices", ClaimMode.EXCLUSIVE);
            Claim app = mallory.claim("reports/leader", ClaimMode.EXCLUSIVE);   // not the provider's: free
            assertThat(shared.release()).isZero();
            own.release();
            app.release();
        }
    }
}
