package io.mikyu.broker.xa;

import jakarta.jms.Connection;
import jakarta.jms.XAConnection;
import jakarta.transaction.TransactionManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The daemon dies ({@code kill -9}) in the middle of a JTA commit (Narayana in this JVM, mikyu over {@code tcp://}
 * and H2), in a loop of {@value #CYCLES} cycles ({@code -Dmikyu.xa.cycles} overrides; about 100 s): mikyu and H2 are prepared, Narayana has logged its decision,
 * and a test-only resource enlisted first kills the daemon in its {@code commit}. mikyu's commit then cannot reach
 * the daemon (its outcome unknown: {@code XAER_RMFAIL}, never a rollback), H2 commits, and Narayana keeps the
 * transaction for recovery. Once the daemon is back (on a new port), Narayana's recovery commits mikyu's branch:
 * the message and the row both exist, once, and the consumed message is gone.
 */
class DaemonDiesDuringCommitTest {

    static final int CYCLES = 20;
    private static final String IN = "commit.in";
    private static final String OUT = "commit.out";

    @TempDir
    Path dir;

    @Test
    void aDaemonKilledAfterTheCommitDecisionCommitsItsBranchThroughRecoveryOnceItIsBack() {
        Cycles.within(Duration.ofSeconds(30), CYCLES, this::runCycles);
    }

    private void runCycles() throws Exception {
        Narayana.configureThisJvm();
        TransactionManager tm = Narayana.transactionManager();
        H2Db db = new H2Db(dir.resolve("h2")).createTable();
        int cycles = Cycles.count(CYCLES);
        try (MikyuStore store = MikyuStore.start(Transport.TCP, dir)) {
            for (int cycle = 1; cycle <= cycles; cycle++) {
                String where = "cycle " + cycle + " of " + cycles;
                Jms.send(store.url(), IN, "in-" + cycle);
                String row = "commit-row-" + cycle;
                Killer killer = new Killer(store);
                try (Application app = new Application(store.url("reconnect=0"), db)) {
                    tm.begin();
                    tm.getTransaction().enlistResource(killer);        // first: commits first, and kills
                    app.enlist(tm);
                    assertThat(app.receive(IN, 10_000)).as("%s: received", where).isEqualTo("in-" + cycle);
                    app.send(OUT, "out-" + cycle);
                    app.insert(row);
                    tm.commit();
                } catch (Exception e) {
                    throw new AssertionError(where + ": the commit, with the daemon killed in its second phase,"
                            + " threw " + e, e);
                }
                assertThat(killer.killed).as("%s: the daemon was killed in the commit", where).isTrue();
                assertThat(db.rows(row)).as("%s: H2's row, committed in the second phase", where).isEqualTo(1);

                store.restart();
                List<String> inDoubt = Jms.inDoubt(store.url());
                assertThat(inDoubt).as("%s: mikyu's branches in doubt once the daemon is back", where).hasSize(1);

                List<XAConnection> opened = new ArrayList<>();
                try (Narayana.Recovery recovery = Narayana.recovery(List.of(() -> resourceOf(store, opened)))) {
                    for (int scan = 0; scan < 5 && !Jms.inDoubt(store.url()).isEmpty(); scan++) {
                        recovery.scan();
                    }
                } finally {
                    for (XAConnection c : opened) {
                        c.close();
                    }
                }
                assertThat(Jms.inDoubt(store.url())).as("%s: in doubt after Narayana's recovery", where).isEmpty();
                try (Connection c = Jms.plain(store.url()).createConnection()) {
                    assertThat(Jms.texts(Jms.drain(c, OUT, Jms.EXPECTED))).as("%s: messages sent", where)
                            .containsExactly("out-" + cycle);
                    assertThat(Jms.drain(c, IN)).as("%s: the consumed message", where).isEmpty();
                }
            }
        }
    }

    private static XAResource resourceOf(MikyuStore store, List<XAConnection> opened) {
        try {
            XAConnection c = Jms.xaFactory(store.url()).createXAConnection();
            opened.add(c);
            return c.createXASession().getXAResource();
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Kills the daemon in its commit (once), after the decision was logged and before mikyu commits. */
    private static final class Killer implements XAResource {

        private final MikyuStore store;
        private final AtomicBoolean fired = new AtomicBoolean();
        volatile boolean killed;

        Killer(MikyuStore store) {
            this.store = store;
        }

        @Override
        public void commit(Xid xid, boolean onePhase) throws XAException {
            if (fired.compareAndSet(false, true)) {
                try {
                    store.kill();
                    killed = true;
                } catch (Exception e) {
                    throw (XAException) new XAException(XAException.XAER_RMERR).initCause(e);
                }
            }
        }

        @Override
        public int prepare(Xid xid) {
            return XA_OK;
        }

        @Override
        public void start(Xid xid, int flags) {
        }

        @Override
        public void end(Xid xid, int flags) {
        }

        @Override
        public void rollback(Xid xid) {
        }

        @Override
        public void forget(Xid xid) {
        }

        @Override
        public Xid[] recover(int flag) {
            return new Xid[0];
        }

        @Override
        public boolean isSameRM(XAResource other) {
            return other == this;
        }

        @Override
        public int getTransactionTimeout() {
            return 0;
        }

        @Override
        public boolean setTransactionTimeout(int seconds) {
            return false;
        }
    }
}
