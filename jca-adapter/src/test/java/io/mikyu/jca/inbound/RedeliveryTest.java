package io.mikyu.jca.inbound;

import io.mikyu.jca.testkit.TestEndpointFactory;
import io.mikyu.jca.testkit.TestEndpointFactory.Delivery;
import jakarta.jms.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A delivery that fails comes again, flagged redelivered: a transacted endpoint's rolled back branch (an exception,
 * or setRollbackOnly), a non-transacted endpoint's RuntimeException; after maxAttempts the message is dead-lettered.
 */
@Timeout(60)
class RedeliveryTest {

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

    @Test
    void aRolledBackDeliveryComesAgainFlaggedAndGoesToTheDeadLetterQueueAfterMaxAttempts() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(true, (m, tm) -> {
            throw new IllegalStateException("the bean fails every time");
        });
        MikyuActivationSpec spec = Inbound.queue("payments");
        spec.setMaxAttempts(3);
        spec.setMaxSession(1);
        inbound.activate(mdb, spec);
        inbound.awaitSessions(1); // the activation created the queue, with its maxAttempts
        inbound.send("payments", "pay-1");

        await("3 deliveries").atMost(Inbound.AT_MOST).until(() -> mdb.deliveries.size() >= 3);
        List<Message> dead = inbound.drain("payments/dlq", 5_000);
        assertThat(Inbound.texts(dead)).containsExactly("pay-1");
        assertThat(mdb.deliveries).extracting(Delivery::redelivered).containsExactly(false, true, true);
        assertThat(mdb.deliveries).extracting(Delivery::deliveryCount).containsExactly(1, 2, 3);
        assertThat(mdb.deliveries).allMatch(Delivery::inTransaction);
        assertThat(inbound.drain("payments", 300)).isEmpty();
    }

    @Test
    void setRollbackOnlyRedeliversAndTheNextCommitConsumes() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        TestEndpointFactory mdb = new TestEndpointFactory(true, (m, tm) -> {
            if (calls.incrementAndGet() == 1) {
                tm.setRollbackOnly(); // returns normally, the container rolls back
            }
        });
        MikyuActivationSpec spec = Inbound.queue("jobs");
        inbound.activate(mdb, spec);
        inbound.send("jobs", "job-1");
        await("2 deliveries").atMost(Inbound.AT_MOST).until(() -> mdb.deliveries.size() >= 2);
        inbound.ra.endpointDeactivation(mdb, spec); // returns once the deliveries in progress ended: none come later
        assertThat(mdb.deliveries).extracting(Delivery::text).containsExactly("job-1", "job-1");
        assertThat(mdb.deliveries).extracting(Delivery::redelivered).containsExactly(false, true);
        assertThat(inbound.drain("jobs", 300)).as("committed the second time").isEmpty();
    }

    @Test
    void aNonTransactedEndpointThatThrowsGetsTheMessageAgain() throws Exception {
        // the sessions deliver in parallel: whichever message comes first is the one whose onMessage throws
        java.util.concurrent.atomic.AtomicReference<String> threwFor = new java.util.concurrent.atomic.AtomicReference<>();
        TestEndpointFactory mdb = new TestEndpointFactory(false, (m, tm) -> {
            if (threwFor.compareAndSet(null, ((jakarta.jms.TextMessage) m).getText())) {
                throw new RuntimeException("first time fails");
            }
        });
        MikyuActivationSpec spec = Inbound.queue("mails");
        inbound.activate(mdb, spec);
        inbound.send("mails", "mail-1", "mail-2");
        await("3 deliveries").atMost(Inbound.AT_MOST).until(() -> mdb.deliveries.size() >= 3);
        inbound.ra.endpointDeactivation(mdb, spec); // returns once the deliveries in progress ended: none come later
        String failed = threwFor.get();
        String other = failed.equals("mail-1") ? "mail-2" : "mail-1";
        assertThat(mdb.deliveries).extracting(Delivery::text).containsExactlyInAnyOrder(failed, failed, other);
        assertThat(mdb.deliveries.stream().filter(d -> d.text().equals(failed)))
                .extracting(Delivery::redelivered).containsExactly(false, true);
        assertThat(mdb.deliveries.stream().filter(d -> d.text().equals(other)))
                .extracting(Delivery::redelivered).containsExactly(false);
        assertThat(mdb.deliveries).noneMatch(Delivery::inTransaction);
        assertThat(inbound.drain("mails", 300)).as("acknowledged when onMessage returned").isEmpty();
    }

    @Test
    void aNonTransactedEndpointThatAlwaysThrowsDeadLetters() throws Exception {
        TestEndpointFactory mdb = new TestEndpointFactory(false, (m, tm) -> {
            throw new RuntimeException("never");
        });
        MikyuActivationSpec spec = Inbound.queue("bad");
        spec.setMaxAttempts(2);
        inbound.activate(mdb, spec);
        inbound.awaitSessions(MikyuActivationSpec.DEFAULT_MAX_SESSION); // the queue created, with its maxAttempts
        inbound.send("bad", "b-1");
        assertThat(Inbound.texts(inbound.drain("bad/dlq", 10_000))).containsExactly("b-1");
        assertThat(mdb.deliveries).hasSize(2);
    }
}
