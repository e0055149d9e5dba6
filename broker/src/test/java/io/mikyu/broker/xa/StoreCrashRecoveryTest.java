package io.mikyu.broker.xa;

import io.mikyu.engine.XidFormat;
import jakarta.jms.Connection;
import jakarta.jms.XAConnection;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The process holding the store dies ({@code kill -9}) right after a branch was prepared ({@link PreparedBranch}:
 * it consumed {@code in-<n>} and sent {@code out-<n>} to a shared queue and to {@code only-<n>}, a queue the branch's
 * send created and that holds nothing else), in a loop of {@link Cycles#count()} cycles. With {@code tcp://} that is
 * the daemon (the test drives the branch and restarts the daemon); with {@code vm://} the application JVM holding the
 * engine (the test then opens the store itself). After the restart {@code recover()} lists the branch, and its
 * commit (or rollback) applies exactly what the branch did: nothing lost (the prepared sends, also on the queue
 * that held nothing else; a message committed outside the branch before the crash), nothing duplicated.
 */
class StoreCrashRecoveryTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"VM", "TCP"}) // prepared: the same record with prepareAhead
    void aBranchPreparedBeforeTheStoreWasKilledIsListedAfterTheRestartAndCommitsWithNothingLostOrDuplicated(
            Transport transport) {
        Cycles.within(Duration.ofSeconds(30), () -> runCycles(transport, true));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Transport.class, names = {"VM", "TCP"}) // prepared: the same record with prepareAhead
    void aBranchPreparedBeforeTheStoreWasKilledIsListedAfterTheRestartAndRollsBackLeavingOnlyItsConsumedMessage(
            Transport transport) {
        Cycles.within(Duration.ofSeconds(30), () -> runCycles(transport, false));
    }

    private void runCycles(Transport transport, boolean commit) throws Exception {
        int cycles = Cycles.count();
        try (MikyuStore store = MikyuStore.start(transport, dir)) {
            for (int cycle = 1; cycle <= cycles; cycle++) {
                String where = transport + ", " + (commit ? "commit" : "rollback") + ", cycle " + cycle + " of "
                        + cycles;
                long t0 = System.nanoTime();
                String prepared = !transport.embedded()
                        ? prepareThenKillTheDaemon(store, cycle, where)
                        : prepareThenKillTheApplication(store, cycle, where);
                long t1 = System.nanoTime();

                List<Jms.Received> out;
                List<Jms.Received> only;
                List<Jms.Received> in;
                // One connection stays open from the decision to the checks: with vm:// the engine stays open (what
                // a restart right after a rollback does is XaRedeliveryTest's concern).
                try (Connection c = Jms.plain(store.url()).createConnection()) {
                    List<String> inDoubt = Jms.inDoubt(store.url());
                    assertThat(inDoubt).as("%s: what recover() lists after the restart", where)
                            .containsExactly(prepared);
                    Xid xid = XidFormat.fromBytes(XidFormat.fromText(prepared));
                    XAConnection xc = Jms.xaFactory(store.url()).createXAConnection();
                    try {
                        XAResource resource = xc.createXASession().getXAResource();
                        if (commit) {
                            resource.commit(xid, false);
                        } else {
                            resource.rollback(xid);
                        }
                    } finally {
                        xc.close();
                    }
                    assertThat(Jms.inDoubt(store.url())).as("%s: in doubt after the decision", where).isEmpty();
                    out = Jms.drain(c, PreparedBranch.OUT, Jms.EXPECTED); // the bystander at least
                    only = Jms.drain(c, PreparedBranch.onlyQueue(cycle), commit ? Jms.EXPECTED : Jms.QUIET);
                    in = Jms.drain(c, PreparedBranch.IN, commit ? Jms.QUIET : Duration.ofSeconds(5));
                }
                if (commit) {
                    assertThat(Jms.texts(out)).as("%s: the shared queue (a message sent outside the branch, then the"
                            + " branch's)", where).containsExactlyInAnyOrder("bystander-" + cycle, "out-" + cycle);
                    assertThat(Jms.texts(only)).as("%s: the queue that held only the branch's send", where)
                            .containsExactly("out-" + cycle);
                    assertThat(in).as("%s: the message the branch consumed", where).isEmpty();
                } else {
                    assertThat(Jms.texts(out)).as("%s: the shared queue", where).containsExactly("bystander-" + cycle);
                    assertThat(only).as("%s: the queue the branch's send created", where).isEmpty();
                    assertThat(in).as("%s: the message the branch consumed, back", where).hasSize(1);
                    assertThat(in.get(0).text()).isEqualTo("in-" + cycle);
                    assertThat(in.get(0).redelivered()).as("%s: JMSRedelivered", where).isTrue();
                    assertThat(in.get(0).deliveryCount()).as("%s: JMSXDeliveryCount", where).isEqualTo(2);
                }
                System.out.printf("%s: prepare and kill %d ms, recover, decide and check %d ms%n", where,
                        (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000);
            }
        }
    }

    /** The test drives the branch over TCP, then kills the daemon and starts it again. */
    private static String prepareThenKillTheDaemon(MikyuStore store, int cycle, String where) throws Exception {
        Xid xid = Xids.create("prepared-" + cycle);
        try (Connection plain = Jms.plain(store.url("reconnect=0")).createConnection()) {
            XAConnection xc = Jms.xaFactory(store.url("reconnect=0")).createXAConnection();
            try {
                assertThat(PreparedBranch.run(plain, xc, xid, cycle)).as("%s: prepare's vote", where)
                        .isEqualTo(XAResource.XA_OK);
                store.killAndRestart();
            } finally {
                closeQuietly(xc);
            }
        } catch (jakarta.jms.JMSException closingAfterTheDaemonDied) {
            // the plain connection's close, to a daemon that is gone
        }
        return Xids.text(xid);
    }

    /** A child JVM holding the engine drives the branch; the test kills it once prepared. */
    private String prepareThenKillTheApplication(MikyuStore store, int cycle, String where) throws Exception {
        try (ChildJvm app = ChildJvm.start(dir, "application", XaApplication.class, Map.of(),
                XaApplication.args("prepare", Map.of("url", store.url(), "cycle", String.valueOf(cycle))))) {
            String[] said = app.awaitValue("prepared", Duration.ofSeconds(60)).split(" ");
            assertThat(Integer.parseInt(said[1])).as("%s: prepare's vote", where).isEqualTo(XAResource.XA_OK);
            app.sigkill();
            return said[0];
        }
    }

    private static void closeQuietly(XAConnection xc) {
        try {
            xc.close();
        } catch (jakarta.jms.JMSException | RuntimeException ignored) {
            // its daemon is gone
        }
    }
}
