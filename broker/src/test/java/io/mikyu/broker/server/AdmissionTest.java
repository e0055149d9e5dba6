package io.mikyu.broker.server;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules of admission, on a clock the test moves. */
class AdmissionTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Admission admission = new Admission(new AdmissionLimits(3, 2, 1, 4, 2, Duration.ofSeconds(5)),
            meters, now::get);

    private static final InetSocketAddress ALICE = new InetSocketAddress("10.0.0.1", 40000);
    private static final InetSocketAddress ALICE_AGAIN = new InetSocketAddress("10.0.0.1", 40001);
    private static final InetSocketAddress BOB = new InetSocketAddress("10.0.0.2", 40000);

    @AfterEach
    void close() {
        admission.close();
    }

    @Test
    void connectionsAreCountedInTotalAndPerAddress() {
        assertThat(admission.admit(ALICE)).isNull();
        assertThat(admission.admit(ALICE_AGAIN)).isNull();
        assertThat(admission.admit(ALICE)).contains("10.0.0.1", "maxConnectionsPerAddress");
        assertThat(admission.admit(BOB)).isNull();
        assertThat(admission.admit(new InetSocketAddress("10.0.0.3", 1))).contains("maxConnections");
        admission.left(ALICE);
        assertThat(admission.admit(ALICE)).isNull();
        assertThat(meters.get("mikyu.broker.connections.refused").tag("reason", "maxConnectionsPerAddress")
                .counter().count()).isEqualTo(1);
        assertThat(meters.get("mikyu.broker.connections.refused").tag("reason", "maxConnections")
                .counter().count()).isEqualTo(1);
    }

    @Test
    void anAddressThatKeepsFailingWaitsLongerEachTimeUpToTheLimit() {
        admission.loginFailed(ALICE);
        admission.loginFailed(ALICE);
        assertThat(admission.loginWaitMillis(ALICE)).isZero();           // two failures are free
        admission.loginFailed(ALICE);
        assertThat(admission.loginWaitMillis(ALICE_AGAIN)).isEqualTo(1_000);
        assertThat(admission.loginWaitMillis(BOB)).isZero();             // another address is not held up
        advance(1_000);
        assertThat(admission.loginWaitMillis(ALICE)).isZero();
        admission.loginFailed(ALICE);
        assertThat(admission.loginWaitMillis(ALICE)).isEqualTo(2_000);
        advance(2_000);
        admission.loginFailed(ALICE);
        assertThat(admission.loginWaitMillis(ALICE)).isEqualTo(4_000);
        advance(4_000);
        admission.loginFailed(ALICE);
        assertThat(admission.loginWaitMillis(ALICE)).isEqualTo(5_000);   // maxLoginDelay
        assertThat(meters.get("mikyu.broker.authentication.throttled").counter().count()).isEqualTo(4);
    }

    @Test
    void aSuccessfulLoginEndsTheWait() {
        for (int i = 0; i < 3; i++) {
            admission.loginFailed(ALICE);
        }
        assertThat(admission.loginWaitMillis(ALICE)).isPositive();
        advance(1_000);
        admission.loginSucceeded(ALICE);
        admission.loginFailed(ALICE);
        assertThat(admission.loginWaitMillis(ALICE)).isZero();
    }

    private void advance(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
