package io.mikyu.broker.server;

import io.mikyu.engine.AuthenticationException;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.MikyuException;
import io.mikyu.engine.Entry;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.security.PasswordHash;
import io.mikyu.engine.security.SecurityRealm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bad logins and too many connections cost the broker little and cost its other clients nothing: password checks
 * run on a pool of their own, an address that keeps failing waits without being checked, and connections past a
 * limit are refused before any work is done for them. Real broker, loopback.
 */
@Timeout(120)
class LoginFloodTest {

    @TempDir
    Path dir;

    /** One user, at a realistic hashing cost for the user and the default one for unknown names. */
    private static SecurityRealm realm() {
        return SecurityRealm.from(MikyuConfig.load(null, Map.of(
                "users.app.password", PasswordHash.hash("app-pass".toCharArray(), 1_000),
                "users.app.roles", "apps",
                "roles.apps.produce", "*",
                "roles.apps.consume", "*",
                "roles.apps.manage", "*"), "test"));
    }

    private static Mikyu dial(RunningBroker broker, String user, String password) {
        return Mikyu.dial(broker.uri() + "?connectTimeout=60s&requestTimeout=60s",
                Map.of("user", user, "password", password));
    }

    @Test
    void aFloodOfBadLoginsDoesNotHoldUpTheRequestsOfConnectedClients() throws Exception {
        // No per-address wait here: every bad login is checked, at the full cost of an unknown user's check.
        AdmissionLimits limits = new AdmissionLimits(10_000, 1_000, 1, 1_000, 1_000_000, Duration.ZERO);
        // Two workers: were passwords checked on them, the flood would keep them busy and the appends would wait
        // behind its checks, past their request timeout.
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE,
                o -> new BrokerOptions(o.endpoints(), o.maxFrameBytes(), o.heartbeat(), 2, o.maxWaitingCalls(),
                        o.shutdownGrace(), o.serverName(), realm(), o.tls(), o.meterRegistry(), limits));
             Mikyu app = Mikyu.dial(broker.uri() + "?connectTimeout=60s&requestTimeout=10s",
                     Map.of("user", "app", "password", "app-pass"))) {
            LogQueue events = app.createLog("events");
            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicInteger refused = new AtomicInteger();
            ExecutorService attackers = Executors.newFixedThreadPool(16);
            List<java.util.concurrent.Future<?>> attacks = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                attacks.add(attackers.submit(() -> {
                    while (flooding.get()) {
                        try (Mikyu m = Mikyu.dial(broker.uri() + "?connectTimeout=5s",
                                Map.of("user", "nobody", "password", "guess"))) {
                            throw new AssertionError("a wrong password was let in");
                        } catch (MikyuException e) {   // refused, busy, or no answer within 5 s
                            refused.incrementAndGet();
                        }
                    }
                }));
            }
            try {
                // The workers that serve requests are not the ones checking passwords: the flood's logins wait
                // for the one checking thread while these appends are answered.
                for (int i = 0; i < 200; i++) {
                    assertThat(events.append(Entry.of("during the flood " + i))).isEqualTo(i);
                }
            } finally {
                flooding.set(false);
                attackers.shutdown();
                assertThat(attackers.awaitTermination(90, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            }
            for (java.util.concurrent.Future<?> f : attacks) {
                f.get();
            }
            assertThat(events.endOffset()).isEqualTo(200);
            assertThat(refused.get()).isPositive();
        }
    }

    @Test
    void anAddressThatKeepsFailingIsRefusedWithoutACheckUntilItsWaitIsOver() throws Exception {
        AdmissionLimits limits = new AdmissionLimits(10_000, 1_000, 2, 64, 2, Duration.ofSeconds(30));
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE,
                o -> o.withRealm(realm()).withAdmission(limits))) {
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> dial(broker, "app", "wrong")).isInstanceOf(AuthenticationException.class)
                        .hasMessageContaining("wrong user name or password");
            }
            // The right password now: not even checked, the address waits first.
            assertThatThrownBy(() -> dial(broker, "app", "app-pass")).isInstanceOf(AuthenticationException.class)
                    .hasMessageContaining("too many failed logins from this address");
        }
    }

    @Test
    void connectionsPastTheLimitOfAnAddressAreRefusedAndAdmittedAgainOnceOneCloses() {
        AdmissionLimits limits = new AdmissionLimits(10_000, 2, 2, 64, 5, Duration.ofSeconds(30));
        try (RunningBroker broker = new RunningBroker(dir, RunningBroker.ENGINE,
                o -> o.withRealm(realm()).withAdmission(limits))) {
            Mikyu first = dial(broker, "app", "app-pass");
            try (Mikyu second = dial(broker, "app", "app-pass")) {
                assertThatThrownBy(() -> dial(broker, "app", "app-pass")).isInstanceOf(MikyuException.class)
                        .hasMessageContaining("maxConnectionsPerAddress");
                first.close();
                // the broker counts the closed connection out when it sees it close
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                Mikyu third = null;
                while (third == null) {
                    try {
                        third = dial(broker, "app", "app-pass");
                    } catch (MikyuException e) {
                        if (System.nanoTime() > deadline || !e.getMessage().contains("maxConnectionsPerAddress")) {
                            throw e;
                        }
                        Thread.onSpinWait();
                    }
                }
                third.close();
                assertThat(second.list(io.mikyu.engine.QueueKind.LOG)).isEmpty();
            }
        }
    }
}
