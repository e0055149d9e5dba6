package io.mikyu.broker.xa;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * When the messages a branch consumed come back, driven by hand as a transaction manager drives a resource: at once
 * when the branch is rolled back (before or after prepare: {@code redeliveryDelay} is 0), and at the branch's
 * timeout when nobody ends it. For {@code vm://} and {@code tcp://}.
 *
 * <p>The XA connections whose sessions stay open after their branch ends run with {@code prefetch=0}: over
 * {@code tcp://} a consumer stream (even of a closed consumer) may take the message back from the broker as soon
 * as it is ready again, which is not what these tests are about.
 */
@Timeout(60)
class XaRedeliveryTest {

    /** "At once": the engine's timer ticks every 100 ms; the rest is the way back to a waiting consumer. */
    private static final Duration AT_ONCE = Duration.ofMillis(500);
    private static final AtomicInteger SEQ = new AtomicInteger();

    @TempDir
    static Path dir;

    private static final Map<Transport, MikyuStore> STORES = new EnumMap<>(Transport.class);

    @AfterAll
    static void tearDown() {
        STORES.values().forEach(MikyuStore::close);
    }

    private static synchronized MikyuStore store(Transport transport) throws Exception {
        MikyuStore store = STORES.get(transport);
        if (store == null) {
            store = MikyuStore.start(transport, dir.resolve(transport.name().toLowerCase()));
            STORES.put(transport, store);
        }
        return store;
    }

    private static String unique(String what, Transport transport) {
        return what + "-" + transport.name().toLowerCase() + "-" + SEQ.incrementAndGet();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aBranchRolledBackBeforePrepareDeliversItsConsumedMessageAgainAtOnce(Transport transport) throws Exception {
        rollBackAndMeasure(transport, false);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aBranchRolledBackAfterPrepareDeliversItsConsumedMessageAgainAtOnce(Transport transport) throws Exception {
        rollBackAndMeasure(transport, true);
    }

    private void rollBackAndMeasure(Transport transport, boolean prepareFirst) throws Exception {
        MikyuStore store = store(transport);
        String queue = unique("work", transport);
        Jms.send(store.url(), queue, "job");
        try (Connection plain = Jms.plain(store.url()).createConnection()) {
            plain.start();
            MessageConsumer watcher = plain.createSession(false, Session.AUTO_ACKNOWLEDGE)
                    .createConsumer(plain.createSession(false, Session.AUTO_ACKNOWLEDGE).createQueue(queue));
            XAConnection xc = Jms.xaFactory(store.url("prefetch=0")).createXAConnection();
            try {
                xc.start();
                XASession session = xc.createXASession();
                XAResource resource = session.getXAResource();
                Xid xid = Xids.create("rollback");
                resource.start(xid, XAResource.TMNOFLAGS);
                Message m = session.getSession().createConsumer(session.getSession().createQueue(queue))
                        .receive(10_000);
                assertThat(m).as("the message, received in the branch").isNotNull();
                resource.end(xid, XAResource.TMSUCCESS);
                if (prepareFirst) {
                    assertThat(resource.prepare(xid)).isEqualTo(XAResource.XA_OK);
                }
                resource.rollback(xid);
                long rolledBack = System.nanoTime();
                Message again = watcher.receive(10_000);
                long waited = Duration.ofNanos(System.nanoTime() - rolledBack).toMillis();
                assertThat(again).as("the message, delivered again after the rollback").isNotNull();
                assertThat(again.getJMSRedelivered()).isTrue();
                assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
                assertThat(waited).as("ms from the rollback%s to the message's redelivery (redeliveryDelay 0)",
                        prepareFirst ? " of the prepared branch" : "").isLessThanOrEqualTo(AT_ONCE.toMillis());
            } finally {
                xc.close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aPreparedBranchRolledBackJustBeforeTheStoreRestartsHasItsMessageBackWithoutWaitingForItsTimeout(
            Transport transport) throws Exception {
        MikyuStore store = store(transport);
        String queue = unique("work", transport);
        int timeoutSeconds = 300;
        Jms.send(store.url(), queue, "job");
        XAConnection xc = Jms.xaFactory(store.url("transactionTimeout=" + timeoutSeconds + "&prefetch=0"))
                .createXAConnection();
        try {
            xc.start();
            XASession session = xc.createXASession();
            XAResource resource = session.getXAResource();
            Xid xid = Xids.create("rollback-restart");
            resource.start(xid, XAResource.TMNOFLAGS);
            assertThat(session.getSession().createConsumer(session.getSession().createQueue(queue)).receive(10_000))
                    .isNotNull();
            resource.end(xid, XAResource.TMSUCCESS);
            assertThat(resource.prepare(xid)).isEqualTo(XAResource.XA_OK);
            resource.rollback(xid);
        } finally {
            xc.close();                 // vm://: the last connection: the engine closes
        }
        if (transport == Transport.TCP) {
            store.killAndRestart();
        }
        long reopened = System.nanoTime();
        java.util.List<Jms.Received> back = Jms.drain(store.url(), queue, Duration.ofSeconds(10));
        assertThat(back).as("the message of the branch rolled back before the %s, back within %d ms of the restart"
                        + " (its branch's timeout was %d s)",
                transport.embedded() ? "engine closed" : "daemon was killed",
                Duration.ofNanos(System.nanoTime() - reopened).toMillis(), timeoutSeconds).hasSize(1);
        assertThat(back.get(0).redelivered()).isTrue();
        assertThat(back.get(0).deliveryCount()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aMessageReceivedInABranchByAConsumerOpenedBeforeItComesBackAtTheBranchsTimeout(Transport transport)
            throws Exception {
        MikyuStore store = store(transport);
        String queue = unique("work", transport);
        int timeoutSeconds = 2;
        try (Connection plain = Jms.plain(store.url()).createConnection()) {
            plain.start();
            Session ps = plain.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer watcher = ps.createConsumer(ps.createQueue(queue + ".none"));
            XAConnection xc = Jms.xaFactory(store.url("transactionTimeout=" + timeoutSeconds)).createXAConnection();
            try {
                xc.start();
                XASession session = xc.createXASession();
                XAResource resource = session.getXAResource();
                Session s = session.getSession();
                MessageConsumer consumer = s.createConsumer(s.createQueue(queue));   // before the branch
                Jms.send(plain, queue, "job");
                assertThat(watcher.receive(200)).isNull();                       // the consumer may prefetch now
                Xid xid = Xids.create("consumer-first");
                long started = System.currentTimeMillis();
                resource.start(xid, XAResource.TMNOFLAGS);
                assertThat(consumer.receive(10_000)).as("the message, received in the branch").isNotNull();
                xc.close();     // the branch stays (for its manager); the connection renews no lease any more
                watcher.close();
                MessageConsumer again = ps.createConsumer(ps.createQueue(queue));
                Message m = again.receive(timeoutSeconds * 1_000L + 10_000);
                long back = System.currentTimeMillis();
                long deadline = started + timeoutSeconds * 1_000L;
                assertThat(m).as("the message received in the branch, back after the branch's timeout").isNotNull();
                assertThat(back).as("when the message came back (ms since the epoch), against the branch's deadline"
                        + " %d", deadline).isBetween(deadline - 100, deadline + AT_ONCE.toMillis());
                assertThat(m.getJMSRedelivered()).isTrue();
            } finally {
                xc.close();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void endCalledJustPastTheBranchsTimeoutAnswersXaRbTimeout(Transport transport) throws Exception {
        MikyuStore store = store(transport);
        String queue = unique("work", transport);
        int timeoutSeconds = 1;
        Jms.send(store.url(), queue, "job");
        XAConnection xc = Jms.xaFactory(store.url("transactionTimeout=" + timeoutSeconds)).createXAConnection();
        try {
            xc.start();
            XASession session = xc.createXASession();
            XAResource resource = session.getXAResource();
            Xid xid = Xids.create("end-late");
            resource.start(xid, XAResource.TMNOFLAGS);
            long deadline = System.currentTimeMillis() + timeoutSeconds * 1_000L;  // the branch's is earlier
            assertThat(session.getSession().createConsumer(session.getSession().createQueue(queue)).receive(10_000))
                    .isNotNull();
            // Past the deadline by a millisecond or so: before the client's 100 ms tick rolls the branch back.
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1))
                    .until(() -> System.currentTimeMillis() > deadline);
            assertThatThrownBy(() -> resource.end(xid, XAResource.TMSUCCESS))
                    .as("end of a branch %d ms past its timeout", System.currentTimeMillis() - deadline)
                    .isInstanceOfSatisfying(XAException.class,
                            e -> assertThat(e.errorCode).isEqualTo(XAException.XA_RBTIMEOUT));
        } finally {
            xc.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void aBranchNobodyEndsIsRolledBackAtItsTimeoutAndItsConsumedMessageComesBackThen(Transport transport)
            throws Exception {
        MikyuStore store = store(transport);
        String queue = unique("work", transport);
        String out = unique("out", transport);
        int timeoutSeconds = 2;
        Jms.send(store.url(), queue, "job");
        try (Connection plain = Jms.plain(store.url()).createConnection()) {
            plain.start();
            Session ps = plain.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer watcher = ps.createConsumer(ps.createQueue(queue));
            XAConnection xc = Jms.xaFactory(store.url("transactionTimeout=" + timeoutSeconds + "&prefetch=0"))
                    .createXAConnection();
            try {
                xc.start();
                XASession session = xc.createXASession();
                XAResource resource = session.getXAResource();
                Xid xid = Xids.create("timeout");
                long started = System.currentTimeMillis();
                resource.start(xid, XAResource.TMNOFLAGS);
                Session s = session.getSession();
                assertThat(s.createConsumer(s.createQueue(queue)).receive(10_000)).isNotNull();
                s.createProducer(s.createQueue(out)).send(s.createTextMessage("never"));

                Message again = watcher.receive(timeoutSeconds * 1_000L + 10_000);
                long back = System.currentTimeMillis();
                long deadline = started + timeoutSeconds * 1_000L;
                assertThat(again).as("the message consumed in the branch, back after its timeout").isNotNull();
                assertThat(back).as("when the message came back (ms since the epoch), against the branch's deadline"
                        + " %d", deadline).isBetween(deadline - 100, deadline + AT_ONCE.toMillis());
                assertThat(again.getJMSRedelivered()).isTrue();
                assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);

                boolean ended;
                try {
                    resource.end(xid, XAResource.TMSUCCESS);
                    ended = true;
                } catch (XAException e) {
                    assertThat(e.errorCode).as("end of a branch past its timeout").isEqualTo(XAException.XA_RBTIMEOUT);
                    ended = false;
                }
                int expected = ended ? XAException.XA_RBTIMEOUT : XAException.XAER_NOTA;
                String what = "prepare of a branch past its timeout (end " + (ended ? "returned" : "said XA_RBTIMEOUT")
                        + ")";
                assertThatThrownBy(() -> resource.prepare(xid)).isInstanceOfSatisfying(XAException.class,
                        e -> assertThat(e.errorCode).as(what).isEqualTo(expected));
                assertThat(Jms.texts(Jms.drain(plain, out))).as("sends of the branch rolled back at its timeout")
                        .isEmpty();
            } finally {
                xc.close();
            }
        }
    }
}
