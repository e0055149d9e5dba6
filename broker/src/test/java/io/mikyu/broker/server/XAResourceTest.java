package io.mikyu.broker.server;

import io.mikyu.jms.MikyuXAConnectionFactory;
import io.mikyu.jms.jndi.MikyuInitialContextFactory;
import io.mikyu.engine.XidFormat;
import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.XAConnection;
import jakarta.jms.XAConnectionFactory;
import jakarta.jms.XAJMSContext;
import jakarta.jms.XASession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.naming.Context;
import javax.naming.InitialContext;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The provider's XAResource by the XA specification, on an embedded store ({@code vm}; {@code vm-ahead} with the
 * option {@code prepareAhead}) and through a broker ({@code tcp}): what a branch's work looks like before and after
 * each outcome, and every error code the specification names for calls out of order, unknown Xids, rolled-back
 * branches and unreachable brokers.
 */
@Timeout(60)
class XAResourceTest {

    private static final AtomicInteger XIDS = new AtomicInteger();

    @TempDir
    Path dir;

    private RunningBroker broker;
    private final List<Connection> connections = new ArrayList<>();

    @AfterEach
    void closeAll() throws JMSException {
        for (Connection c : connections) {
            c.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    // ------------------------------------------------------------------------------------------------ set-up

    private String url(String mode) {
        return url(mode, "");
    }

    private String url(String mode, String options) {
        if (mode.startsWith("vm")) {
            String url = "vm://" + dir.resolve("data") + options;
            if (mode.equals("vm-ahead")) { // branches' PREPARE records written at end (option prepareAhead)
                url += (options.isEmpty() ? "?" : "&") + "prepareAhead=true";
            }
            return url;
        }
        if (broker == null) {
            broker = new RunningBroker(dir.resolve("data"));
        }
        return broker.uri() + options;
    }

    /** Stops everything holding the store and opens it again (the embedded engine closes with its last connection). */
    private void restart(String mode) throws JMSException {
        for (Connection c : connections) {
            c.close();
        }
        connections.clear();
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    private XAConnection connect(String url) throws JMSException {
        XAConnection c = new MikyuXAConnectionFactory(url).createXAConnection();
        connections.add(c);
        c.start();
        return c;
    }

    private Connection plain(String url) throws JMSException {
        Connection c = new MikyuXAConnectionFactory(url).createConnection();
        connections.add(c);
        c.start();
        return c;
    }

    private static Xid xid() {
        int n = XIDS.incrementAndGet();
        return new XidFormat.StoredXid(4660, ("gtrid-" + n).getBytes(), new byte[] {1});
    }

    private static String text(Message m) throws JMSException {
        return m == null ? null : ((TextMessage) m).getText();
    }

    private static void send(Session s, String queue, String text) throws JMSException {
        s.createProducer(s.createQueue(queue)).send(s.createTextMessage(text));
    }

    private String receive(String url, String queue, long millis) throws JMSException {
        Session s = plain(url).createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer c = s.createConsumer(s.createQueue(queue));
        String got = text(c.receive(millis));
        c.close();
        return got;
    }

    private static int code(ThrowingRunnable call) {
        XAException e = catchThrowableOfType(call::run, XAException.class);
        assertThat(e).as("an XAException").isNotNull();
        return e.errorCode;
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }

    // ------------------------------------------------------------------------------------------------ outcomes

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void sendsOfABranchAreInvisibleUntilItCommitsInTwoPhases(String mode) throws Exception {
        String url = url(mode);
        XASession s = connect(url).createXASession();
        XAResource xa = s.getXAResource();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        send(s, "orders", "two coffees");
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        assertThat(receive(url, "orders", 300)).as("visible while prepared").isNull();
        xa.commit(xid, false);
        assertThat(receive(url, "orders", 5_000)).isEqualTo("two coffees");
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void aBranchCommittedInOnePhaseNeedsNoPrepare(String mode) throws Exception {
        String url = url(mode);
        XASession s = connect(url).createXASession();
        XAResource xa = s.getXAResource();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        send(s, "orders", "one tea");
        send(s, "audit", "tea ordered");
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(receive(url, "orders", 300)).isNull();
        xa.commit(xid, true);
        assertThat(receive(url, "orders", 5_000)).isEqualTo("one tea");
        assertThat(receive(url, "audit", 5_000)).isEqualTo("tea ordered");
        assertThat(code(() -> xa.commit(xid, true))).as("a finished branch is forgotten")
                .isEqualTo(XAException.XAER_NOTA);
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void rollbackDropsTheSendsAndDeliversWhatWasConsumedAgainFlaggedRedelivered(String mode) throws Exception {
        String url = url(mode);
        Session producer = plain(url).createSession(false, Session.AUTO_ACKNOWLEDGE);
        send(producer, "jobs", "job-1");
        XASession s = connect(url).createXASession();
        XAResource xa = s.getXAResource();
        MessageConsumer consumer = s.createConsumer(s.createQueue("jobs"));
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        Message first = consumer.receive(5_000);
        assertThat(text(first)).isEqualTo("job-1");
        assertThat(first.getJMSRedelivered()).isFalse();
        send(s, "results", "done-1");
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        xa.rollback(xid);

        assertThat(receive(url, "results", 300)).isNull();
        xa.start(xid = xid(), XAResource.TMNOFLAGS);
        Message again = consumer.receive(5_000);
        assertThat(text(again)).isEqualTo("job-1");
        assertThat(again.getJMSRedelivered()).isTrue();
        assertThat(again.getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);
        assertThat(receive(url, "jobs", 300)).as("acknowledged by the commit").isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void aMessageConsumedInAPreparedBranchIsNobodyElsesUntilTheBranchIsDecided(String mode) throws Exception {
        String url = url(mode, "?leaseMillis=500");
        Session producer = plain(url).createSession(false, Session.AUTO_ACKNOWLEDGE);
        send(producer, "jobs", "job-1");
        XASession s = connect(url).createXASession();
        XAResource xa = s.getXAResource();
        MessageConsumer consumer = s.createConsumer(s.createQueue("jobs"));
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        assertThat(text(consumer.receive(5_000))).isEqualTo("job-1");
        consumer.close();
        xa.end(xid, XAResource.TMSUCCESS);
        xa.prepare(xid);
        // several lease periods pass: the prepared branch holds the message, nobody renews it
        assertThat(receive(url, "jobs", 2_000)).isNull();
        xa.rollback(xid);
        assertThat(receive(url, "jobs", 5_000)).isEqualTo("job-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void aBranchThatDidNothingIsReadOnlyAndForgottenAtPrepare(String mode) throws Exception {
        XAResource xa = connect(url(mode)).createXASession().getXAResource();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_RDONLY);
        assertThat(code(() -> xa.commit(xid, false))).isEqualTo(XAException.XAER_NOTA);
        assertThat(xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)).doesNotContain(xid);
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void recoverListsPreparedBranchesAfterARestartAndTheyCommitWithNothingLost(String mode) throws Exception {
        XASession s = connect(url(mode)).createXASession();
        XAResource xa = s.getXAResource();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        send(s, "lonely", "only message of its queue");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.prepare(xid);
        restart(mode);

        String url = url(mode);
        XAResource after = connect(url).createXASession().getXAResource();
        Xid[] inDoubt = after.recover(XAResource.TMSTARTRSCAN);
        assertThat(after.recover(XAResource.TMENDRSCAN)).isEmpty();
        assertThat(inDoubt).containsExactly(xid);
        after.commit(inDoubt[0], false);
        assertThat(after.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)).isEmpty();
        assertThat(receive(url, "lonely", 5_000)).isEqualTo("only message of its queue");
        assertThat(receive(url, "lonely", 300)).as("exactly once").isNull();
    }

    // ----------------------------------------------------------------------------------------- associations

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void twoSessionsOfOneStoreWorkInOneBranchThroughTmJoin(String mode) throws Exception {
        String url = url(mode);
        XASession a = connect(url).createXASession();
        XASession b = connect(url).createXASession();
        assertThat(a.getXAResource().isSameRM(b.getXAResource())).isTrue();
        Xid xid = xid();
        a.getXAResource().start(xid, XAResource.TMNOFLAGS);
        b.getXAResource().start(xid, XAResource.TMJOIN);
        send(a, "joined", "from a");
        send(b, "joined", "from b");
        a.getXAResource().end(xid, XAResource.TMSUCCESS);
        assertThat(code(() -> a.getXAResource().prepare(xid))).as("b is still associated")
                .isEqualTo(XAException.XAER_PROTO);
        b.getXAResource().end(xid, XAResource.TMSUCCESS);
        assertThat(b.getXAResource().prepare(xid)).isEqualTo(XAResource.XA_OK);
        a.getXAResource().commit(xid, false);
        assertThat(List.of(receive(url, "joined", 5_000), receive(url, "joined", 5_000)))
                .containsExactlyInAnyOrder("from a", "from b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void aSuspendedSessionWorksOutsideTheBranchUntilItResumes(String mode) throws Exception {
        String url = url(mode);
        XASession s = connect(url).createXASession();
        XAResource xa = s.getXAResource();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        send(s, "q", "in the branch");
        xa.end(xid, XAResource.TMSUSPEND);
        send(s, "q", "outside");
        assertThat(receive(url, "q", 5_000)).isEqualTo("outside");
        assertThat(code(() -> xa.start(xid, XAResource.TMJOIN))).as("it must resume, not join")
                .isEqualTo(XAException.XAER_PROTO);
        xa.start(xid, XAResource.TMRESUME);
        send(s, "q", "in the branch again");
        xa.end(xid, XAResource.TMSUCCESS);
        xa.commit(xid, true);
        assertThat(List.of(receive(url, "q", 5_000), receive(url, "q", 5_000)))
                .containsExactly("in the branch", "in the branch again");
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void isSameRmHoldsExactlyForResourcesOfTheSameStore(String mode) throws Exception {
        XAResource one = connect(url(mode)).createXASession().getXAResource();
        XAResource sameStore = connect(url(mode, "?clientID=other")).createXASession().getXAResource();
        XAResource otherStore = connect("vm://" + dir.resolve("other")).createXASession().getXAResource();
        assertThat(one.isSameRM(sameStore)).isTrue();
        assertThat(one.isSameRM(otherStore)).isFalse();
        assertThat(otherStore.isSameRM(one)).isFalse();
    }

    // -------------------------------------------------------------------------------------------- error codes

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void unknownXidsAreXaerNota(String mode) throws Exception {
        XAResource xa = connect(url(mode)).createXASession().getXAResource();
        Xid unknown = xid();
        assertThat(code(() -> xa.prepare(unknown))).isEqualTo(XAException.XAER_NOTA);
        assertThat(code(() -> xa.commit(unknown, false))).isEqualTo(XAException.XAER_NOTA);
        assertThat(code(() -> xa.commit(unknown, true))).isEqualTo(XAException.XAER_NOTA);
        assertThat(code(() -> xa.rollback(unknown))).isEqualTo(XAException.XAER_NOTA);
        assertThat(code(() -> xa.start(unknown, XAResource.TMJOIN))).isEqualTo(XAException.XAER_NOTA);
        assertThat(code(() -> xa.end(unknown, XAResource.TMSUCCESS))).isEqualTo(XAException.XAER_NOTA);
        assertThat(code(() -> xa.forget(unknown))).isEqualTo(XAException.XAER_NOTA);
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void callsOutOfOrderAreXaerProto(String mode) throws Exception {
        XASession s = connect(url(mode)).createXASession();
        XAResource xa = s.getXAResource();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        send(s, "q", "m");
        assertThat(code(() -> xa.start(xid(), XAResource.TMNOFLAGS))).as("second start")
                .isEqualTo(XAException.XAER_PROTO);
        assertThat(code(() -> xa.prepare(xid))).as("prepare before end").isEqualTo(XAException.XAER_PROTO);
        assertThat(code(() -> xa.start(xid, XAResource.TMRESUME))).as("resume of what was not suspended")
                .isEqualTo(XAException.XAER_PROTO);
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(code(() -> xa.end(xid, XAResource.TMSUCCESS))).as("second end")
                .isEqualTo(XAException.XAER_PROTO);
        assertThat(code(() -> xa.commit(xid, false))).as("two-phase commit of an unprepared branch")
                .isEqualTo(XAException.XAER_PROTO);
        xa.prepare(xid);
        assertThat(code(() -> xa.commit(xid, true))).as("one-phase commit of a prepared branch")
                .isEqualTo(XAException.XAER_PROTO);
        assertThat(code(() -> xa.prepare(xid))).as("second prepare").isEqualTo(XAException.XAER_PROTO);
        xa.commit(xid, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void invalidArgumentsAreXaerInval(String mode) throws Exception {
        XAResource xa = connect(url(mode)).createXASession().getXAResource();
        assertThat(code(() -> xa.start(null, XAResource.TMNOFLAGS))).isEqualTo(XAException.XAER_INVAL);
        assertThat(code(() -> xa.start(xid(), XAResource.TMSUCCESS))).isEqualTo(XAException.XAER_INVAL);
        assertThat(code(() -> xa.recover(XAResource.TMJOIN))).isEqualTo(XAException.XAER_INVAL);
        assertThat(code(() -> xa.setTransactionTimeout(-1))).isEqualTo(XAException.XAER_INVAL);
        assertThat(code(() -> xa.start(new XidFormat.StoredXid(1, new byte[65], new byte[0]),
                XAResource.TMNOFLAGS))).as("a gtrid over 64 bytes").isEqualTo(XAException.XAER_INVAL);
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        assertThat(code(() -> xa.end(xid, XAResource.TMJOIN))).isEqualTo(XAException.XAER_INVAL);
        xa.end(xid, XAResource.TMSUCCESS);
        xa.rollback(xid);
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void anXidInUseIsXaerDupid(String mode) throws Exception {
        String url = url(mode);
        XASession a = connect(url).createXASession();
        XASession b = connect(url).createXASession();
        XAResource other = b.getXAResource();
        Xid xid = xid();
        a.getXAResource().start(xid, XAResource.TMNOFLAGS);
        assertThat(code(() -> other.start(xid, XAResource.TMNOFLAGS))).isEqualTo(XAException.XAER_DUPID);
        send(a, "q", "first");
        a.getXAResource().end(xid, XAResource.TMSUCCESS);
        a.getXAResource().prepare(xid);
        // the Xid is prepared in the store: a second branch under it is refused when it is prepared too
        other.start(xid, XAResource.TMNOFLAGS);
        send(b, "q", "second");
        other.end(xid, XAResource.TMSUCCESS);
        assertThat(code(() -> other.prepare(xid))).isEqualTo(XAException.XAER_DUPID);
        a.getXAResource().commit(xid, false);
        assertThat(receive(url, "q", 5_000)).isEqualTo("first");
        assertThat(receive(url, "q", 300)).as("the refused branch was rolled back").isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void aBranchEndedWithTmFailRollsBackAtPrepare(String mode) throws Exception {
        String url = url(mode);
        XASession s = connect(url).createXASession();
        XAResource xa = s.getXAResource();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        send(s, "q", "never");
        xa.end(xid, XAResource.TMFAIL);
        assertThat(code(() -> xa.prepare(xid))).isEqualTo(XAException.XA_RBROLLBACK);
        assertThat(code(() -> xa.commit(xid, false))).as("and is forgotten").isEqualTo(XAException.XAER_NOTA);
        assertThat(receive(url, "q", 300)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void aBranchNotPreparedWithinItsTimeoutIsRolledBackAndSaysXaRbTimeout(String mode) throws Exception {
        String url = url(mode);
        Session producer = plain(url).createSession(false, Session.AUTO_ACKNOWLEDGE);
        send(producer, "jobs", "job-1");
        XASession s = connect(url).createXASession();
        XAResource xa = s.getXAResource();
        assertThat(xa.setTransactionTimeout(1)).isTrue();
        assertThat(xa.getTransactionTimeout()).isEqualTo(1);
        Xid xid = xid();
        long started = System.currentTimeMillis();
        xa.start(xid, XAResource.TMNOFLAGS);
        assertThat(text(s.createConsumer(s.createQueue("jobs")).receive(5_000))).isEqualTo("job-1");
        send(s, "results", "late");
        // the message comes back when the branch times out (its lease ends then, not after leaseMillis = 30 s)
        String back = receive(url, "jobs", 10_000);
        assertThat(back).isEqualTo("job-1");
        assertThat(System.currentTimeMillis() - started).isGreaterThanOrEqualTo(900);
        assertThat(code(() -> xa.end(xid, XAResource.TMSUCCESS))).isEqualTo(XAException.XA_RBTIMEOUT);
        assertThat(code(() -> xa.prepare(xid))).isEqualTo(XAException.XAER_NOTA);
        assertThat(receive(url, "results", 300)).isNull();
    }

    @Test
    void aBrokerThatCannotBeReachedIsXaerRmfailNeverARollback() throws Exception {
        String url = url("tcp", "?reconnect=0&requestTimeout=2s");
        XASession s = connect(url).createXASession();
        XAResource xa = s.getXAResource();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        send(s, "q", "m");
        xa.end(xid, XAResource.TMSUCCESS);
        broker.close();
        broker = null;
        assertThat(code(() -> xa.prepare(xid))).isEqualTo(XAException.XAER_RMFAIL);
        assertThat(code(() -> xa.recover(XAResource.TMSTARTRSCAN))).isEqualTo(XAException.XAER_RMFAIL);
        assertThat(code(() -> xa.commit(xid, false))).isEqualTo(XAException.XAER_RMFAIL);
    }

    // ------------------------------------------------------------------------------------------ the JMS side

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void anXaSessionIsTransactedButCommittedOnlyThroughItsResource(String mode) throws Exception {
        String url = url(mode);
        XASession s = connect(url).createXASession();
        assertThat(s.getTransacted()).isTrue();
        assertThat(s.getAcknowledgeMode()).isEqualTo(Session.SESSION_TRANSACTED);
        assertThatThrownBy(s::commit).isInstanceOf(TransactionInProgressException.class);
        assertThatThrownBy(s::rollback).isInstanceOf(TransactionInProgressException.class);
        assertThat(s.getSession()).isSameAs(s);
        // outside a branch: sends take effect at once, receives are acknowledged as they return
        send(s, "auto", "m1");
        Queue q = s.createQueue("auto");
        assertThat(text(s.createConsumer(q).receive(5_000))).isEqualTo("m1");
        assertThat(receive(url, "auto", 500)).as("acknowledged").isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"vm", "vm-ahead", "tcp"})
    void anXaJmsContextSendsInItsBranch(String mode) throws Exception {
        String url = url(mode);
        try (XAJMSContext ctx = new MikyuXAConnectionFactory(url).createXAContext()) {
            assertThat(ctx.getTransacted()).isTrue();
            assertThat(ctx.getContext()).isSameAs(ctx);
            assertThatThrownBy(ctx::commit).isInstanceOf(TransactionInProgressRuntimeException.class);
            XAResource xa = ctx.getXAResource();
            Xid xid = xid();
            xa.start(xid, XAResource.TMNOFLAGS);
            ctx.createProducer().send(ctx.createQueue("ctx"), "hello");
            xa.end(xid, XAResource.TMSUCCESS);
            assertThat(receive(url, "ctx", 300)).isNull();
            xa.commit(xid, true);
            assertThat(receive(url, "ctx", 5_000)).isEqualTo("hello");
        }
    }

    @Test
    void theTransactionTimeoutComesFromTheUrlAndZeroRestoresIt() throws Exception {
        XAResource xa = connect(url("vm", "?transactionTimeout=5")).createXASession().getXAResource();
        assertThat(xa.getTransactionTimeout()).isEqualTo(5);
        xa.setTransactionTimeout(9);
        assertThat(xa.getTransactionTimeout()).isEqualTo(9);
        xa.setTransactionTimeout(0);
        assertThat(xa.getTransactionTimeout()).isEqualTo(5);
        assertThat(connect(url("vm")).createXASession().getXAResource().getTransactionTimeout()).isEqualTo(60);
    }

    @Test
    void jndiBindsXaConnectionFactories() throws Exception {
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, MikyuInitialContextFactory.class.getName());
        env.put("xaConnectionFactory.XA", "vm://" + dir.resolve("data"));
        Context ctx = new InitialContext(env);
        Object found = ctx.lookup("XA");
        assertThat(found).isInstanceOf(XAConnectionFactory.class).isInstanceOf(MikyuXAConnectionFactory.class);
        try (XAConnection c = ((XAConnectionFactory) found).createXAConnection()) {
            assertThat(c.createXASession().getXAResource()).isNotNull();
        }
        assertThat(Arrays.asList(((MikyuXAConnectionFactory) found).getReference().getClassName()))
                .containsExactly(MikyuXAConnectionFactory.class.getName());
    }

    @Test
    void anXaConnectionStillMakesOrdinarySessions() throws Exception {
        XAConnection c = connect(url("vm"));
        Session plain = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
        assertThat(plain).isNotInstanceOf(XASession.class);
        assertThat(plain.getTransacted()).isFalse();
        try (JMSContext ctx = new MikyuXAConnectionFactory(url("vm")).createContext()) {
            assertThat(ctx.getTransacted()).isFalse();
        }
    }
}
