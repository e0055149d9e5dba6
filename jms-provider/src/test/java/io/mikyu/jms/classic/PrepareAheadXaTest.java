package io.mikyu.jms.classic;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.EngineStats;
import io.mikyu.engine.TimeSource;
import io.mikyu.engine.XidFormat;
import io.mikyu.engine.support.SteppableTimeSource;
import io.mikyu.jms.MikyuXAConnectionFactory;
import io.mikyu.jms.embedded.EmbeddedEngines;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The option {@code prepareAhead} on an embedded store: a branch's PREPARE record is written and fsynced when its
 * last session ends it, and {@code prepare} then waits for no writer cycle. Every way a branch can go on from
 * there: prepared and committed, joined again, rolled back, timed out, committed in one phase (none leaves
 * anything in doubt across a restart), or the store stopped before {@code prepare} (the branch is then in doubt,
 * listed by {@code recover()} for its manager to roll back).
 */
@Timeout(60)
class PrepareAheadXaTest {

    private static final AtomicInteger XIDS = new AtomicInteger();
    private static final int TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;

    private final SteppableTimeSource clock = SteppableTimeSource.startingNow();
    private TimeSource previous;
    private final List<XAConnection> connections = new ArrayList<>();

    @BeforeEach
    void stepClock() {
        previous = Branches.useClock(clock);
    }

    @AfterEach
    void closeAll() throws JMSException {
        closeConnections();
        Branches.useClock(previous);
    }

    private String url() {
        // a short lease: after a restart nobody renews the consumed message, which comes back once it ends
        return "vm://" + dir.resolve("data") + "?prepareAhead=true&leaseMillis=2000";
    }

    private XAConnection connect() throws JMSException {
        XAConnection c = new MikyuXAConnectionFactory(url()).createXAConnection();
        connections.add(c);
        c.start();
        return c;
    }

    /** The embedded store closes with its last connection: what a stop of the application leaves. */
    private void closeConnections() throws JMSException {
        for (XAConnection c : connections) {
            c.close();
        }
        connections.clear();
    }

    private EngineStats stats() {
        EmbeddedEngines.Handle h = EmbeddedEngines.acquire(dir.resolve("data"), EngineConfig.defaults(), m -> { });
        try {
            return h.engine().stats();
        } finally {
            h.release();
        }
    }

    private static Xid xid() {
        return new XidFormat.StoredXid(4660, ("ahead-" + XIDS.incrementAndGet()).getBytes(), new byte[] {1});
    }

    private static void send(Session s, String queue, String text) throws JMSException {
        s.createProducer(s.createQueue(queue)).send(s.createTextMessage(text));
    }

    private String receive(String queue, long millis) throws JMSException {
        Session s = connect().createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer c = s.createConsumer(s.createQueue(queue));
        Message m = c.receive(millis);
        c.close();
        return m == null ? null : ((TextMessage) m).getText();
    }

    private XAResource resource(XASession s) throws XAException {
        XAResource xa = s.getXAResource();
        assertThat(xa.setTransactionTimeout(TIMEOUT_SECONDS)).isTrue();
        return xa;
    }

    /** A branch that consumed "job-1" from jobs and sent "result" to results, ended with TMSUCCESS. */
    private XAResource endedBranchThatConsumedAndSent(Xid xid) throws Exception {
        send(connect().createSession(false, Session.AUTO_ACKNOWLEDGE), "jobs", "job-1");
        XASession s = connect().createXASession();
        XAResource xa = resource(s);
        MessageConsumer consumer = s.createConsumer(s.createQueue("jobs"));
        xa.start(xid, XAResource.TMNOFLAGS);
        assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("job-1");
        consumer.close();
        send(s, "results", "result");
        xa.end(xid, XAResource.TMSUCCESS);
        return xa;
    }

    private Xid[] recover() throws Exception {
        return connect().createXASession().getXAResource().recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN);
    }

    @Test
    void theRecordIsFsyncedAtEndAndPrepareWaitsForNoWriterCycle() throws Exception {
        XASession s = connect().createXASession();
        XAResource xa = resource(s);
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        send(s, "orders", "two coffees");
        long fsyncsBefore = stats().fsyncs();

        xa.end(xid, XAResource.TMSUCCESS);
        await().atMost(Duration.ofSeconds(30)).until(() -> stats().fsyncs() > fsyncsBefore);
        assertThat(recover()).as("written ahead, not prepared: not listed").isEmpty();
        long cycles = stats().commits();
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);

        assertThat(stats().commits()).as("prepare waited for no writer cycle").isEqualTo(cycles);
        assertThat(recover()).containsExactly(xid);
        assertThat(receive("orders", 300)).as("invisible while prepared").isNull();
        xa.commit(xid, false);
        assertThat(receive("orders", 5_000)).isEqualTo("two coffees");
        closeConnections();
        assertThat(recover()).isEmpty();
        assertThat(receive("orders", 300)).as("exactly once").isNull();
    }

    @Test
    void aBranchJoinedAfterItsEndPreparesAllItsWork() throws Exception {
        XASession a = connect().createXASession();
        XASession b = connect().createXASession();
        Xid xid = xid();
        resource(a).start(xid, XAResource.TMNOFLAGS);
        send(a, "joined", "from a");
        a.getXAResource().end(xid, XAResource.TMSUCCESS); // written ahead: a's send only
        b.getXAResource().start(xid, XAResource.TMJOIN);
        send(b, "joined", "from b");
        b.getXAResource().end(xid, XAResource.TMSUCCESS);

        assertThat(a.getXAResource().prepare(xid)).isEqualTo(XAResource.XA_OK);
        assertThat(recover()).as("one branch in doubt, not two records").containsExactly(xid);
        a.getXAResource().commit(xid, false);

        assertThat(List.of(receive("joined", 5_000), receive("joined", 5_000)))
                .containsExactlyInAnyOrder("from a", "from b");
        closeConnections();
        assertThat(recover()).as("the first record written ahead was rolled back").isEmpty();
        assertThat(receive("joined", 300)).isNull();
    }

    @Test
    void rolledBackAfterItsEndNothingIsInDoubtAcrossARestart() throws Exception {
        Xid xid = xid();
        XAResource xa = endedBranchThatConsumedAndSent(xid);

        xa.rollback(xid);

        assertThat(recover()).isEmpty();
        closeConnections();
        assertThat(recover()).isEmpty();
        assertThat(receive("jobs", 5_000)).as("delivered again").isEqualTo("job-1");
        assertThat(receive("results", 300)).isNull();
    }

    @Test
    void timedOutAfterItsEndItIsRolledBackAndNothingIsInDoubtAcrossARestart() throws Exception {
        Xid xid = xid();
        XAResource xa = endedBranchThatConsumedAndSent(xid);

        clock.advance(Duration.ofSeconds(TIMEOUT_SECONDS + 1));
        Branches.tickAll();

        XAException e = catchThrowableOfType(() -> xa.prepare(xid), XAException.class);
        assertThat(e).isNotNull();
        assertThat(e.errorCode).isEqualTo(XAException.XA_RBTIMEOUT);
        assertThat(recover()).isEmpty();
        closeConnections();
        assertThat(recover()).isEmpty();
        assertThat(receive("jobs", 5_000)).as("delivered again").isEqualTo("job-1");
        assertThat(receive("results", 300)).isNull();
    }

    @Test
    void committedInOnePhaseAfterItsEndItIsAppliedOnceAndNothingIsInDoubt() throws Exception {
        Xid xid = xid();
        XAResource xa = endedBranchThatConsumedAndSent(xid);

        xa.commit(xid, true);

        assertThat(receive("results", 5_000)).isEqualTo("result");
        closeConnections();
        assertThat(recover()).isEmpty();
        assertThat(receive("results", 300)).as("exactly once").isNull();
        assertThat(receive("jobs", 300)).as("consumed by the commit").isNull();
    }

    @Test
    void aStoreStoppedBetweenEndAndPrepareListsTheBranchInDoubtForItsManagerToRollBack() throws Exception {
        Xid xid = xid();
        long fsyncsBefore = stats().fsyncs();
        endedBranchThatConsumedAndSent(xid);
        await().atMost(Duration.ofSeconds(30)).until(() -> stats().fsyncs() > fsyncsBefore);

        closeConnections(); // the application stops before its manager prepares

        // Reopened, the store cannot tell the record from a prepared branch's: it is in doubt, and the manager, which
        // logged no decision for a branch it never saw prepared, rolls it back (presumed abort).
        XAResource after = connect().createXASession().getXAResource();
        assertThat(after.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)).containsExactly(xid);
        assertThat(receive("jobs", 300)).as("held while in doubt").isNull();
        after.rollback(xid);
        assertThat(recover()).isEmpty();
        assertThat(receive("jobs", 5_000)).isEqualTo("job-1");
        assertThat(receive("results", 300)).isNull();
    }
}
