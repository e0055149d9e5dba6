package io.mikyu.broker.xa;

import jakarta.jms.Connection;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application JVM (Narayana, H2 and mikyu: {@link XaApplication}) dies in the middle of two-phase commit, in a
 * loop of {@link Cycles#count()} cycles: each cycle its transaction consumes {@code in-<n>}, sends {@code out-<n>}
 * and inserts {@code row-<n>}, and a test-only third resource halts the JVM ({@code Runtime.halt}) either in
 * {@code commit} (Narayana has logged its decision; odd cycles: mikyu and H2 are prepared and neither has
 * committed; even cycles: mikyu has committed, H2 has not) or in {@code prepare} (nothing is logged; odd cycles:
 * mikyu and H2 are prepared; even cycles: mikyu is prepared, H2 is not). The application is then started again and
 * Narayana's recovery ({@code RecoveryManager.scan()}, with recovery helpers for mikyu and H2) settles the
 * transaction: the message and the row agree — both with the decision logged, neither without, and then the
 * consumed message is back, flagged redelivered. With {@code vm://} the engine dies with the application; with
 * {@code tcp://} the daemon the test started stays up.
 */
class ApplicationCrashRecoveryTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void anApplicationThatDiesAfterLoggingItsCommitDecisionCommitsTheMessageAndTheRowWhenItRestarts(
            Transport transport) {
        Cycles.within(Duration.ofSeconds(45), () -> runCycles(transport, "commit"));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void anApplicationThatDiesBeforeLoggingADecisionRollsBackTheMessageAndTheRowWhenItRestarts(Transport transport) {
        Cycles.within(Duration.ofSeconds(45), () -> runCycles(transport, "prepare"));
    }

    private void runCycles(Transport transport, String haltIn) throws Exception {
        int cycles = Cycles.count();
        try (MikyuStore store = MikyuStore.start(transport, dir)) {
            H2Db db = new H2Db(dir.resolve("h2")).createTable();
            Map<String, String> options = new LinkedHashMap<>();
            options.put("url", store.url());
            options.put("objectStore", dir.resolve("narayana").toString());
            options.put("h2", dir.resolve("h2").toString());
            // Global ids of the earlier cycles' transactions: a branch in doubt names the cycle it was left by.
            List<String> earlier = new ArrayList<>();
            for (int cycle = 1; cycle <= cycles; cycle++) {
                options.put("cycle", String.valueOf(cycle));
                boolean between = cycle % 2 == 0;
                options.put("position", between ? "between" : "edge");
                String where = transport + ", halted in " + haltIn + (between ? " between mikyu and H2" : "")
                        + ", cycle " + cycle + " of " + cycles;
                // Who is left in doubt: with the third resource between the two, the one past it is not
                // (commit: mikyu committed already; prepare: H2 was never prepared).
                boolean mikyuInDoubtExpected = !(between && haltIn.equals("commit"));
                boolean h2InDoubtExpected = !(between && haltIn.equals("prepare"));

                long t0 = System.nanoTime();
                String gtrid;
                try (ChildJvm app = ChildJvm.start(dir, "application", XaApplication.class,
                        Map.of(CrashingXAResource.HALT_IN, haltIn), XaApplication.args("transact", options))) {
                    app.awaitLine("halting in " + haltIn, Duration.ofSeconds(60));
                    gtrid = Xids.gtridOf(app.awaitValue("branch", Duration.ofSeconds(5)));
                    app.awaitExit(42, Duration.ofSeconds(30));
                }

                long t1 = System.nanoTime();
                try (ChildJvm restarted = ChildJvm.start(dir, "restarted application", XaApplication.class,
                        Map.of(), XaApplication.args("recover", options))) {
                    restarted.awaitExit(0, Duration.ofSeconds(90));
                    List<String> mikyuInDoubt = XaApplication.parseList(
                            restarted.awaitValue("in-doubt-mikyu", Duration.ZERO));
                    List<String> h2InDoubt = XaApplication.parseList(
                            restarted.awaitValue("in-doubt-h2", Duration.ZERO));
                    assertThat(mikyuInDoubt.stream().map(Xids::gtridOf).toList())
                            .as("%s: global ids of mikyu's branches in doubt after the crash (this cycle's %s,"
                                    + " earlier cycles' %s)", where, gtrid, earlier)
                            .isEqualTo(mikyuInDoubtExpected ? List.of(gtrid) : List.of());
                    List<String> h2Gtrids = h2InDoubt.stream().map(Xids::gtridOf).toList();
                    if (between && haltIn.equals("prepare")) {
                        // JTA does not fix the order in which a transaction manager prepares its resources, and
                        // H2 has been found (rarely, under load) holding this cycle's branch after a halt in the
                        // resource enlisted ahead of it; why is not established. It may hold this cycle's branch,
                        // never an earlier one; mikyu's side above and the outcome below are checked as strictly.
                        assertThat(h2Gtrids)
                                .as("%s: global ids of H2's branches in doubt after the crash (this cycle's %s,"
                                        + " earlier cycles' %s)", where, gtrid, earlier)
                                .isSubsetOf(gtrid);
                        if (!h2Gtrids.isEmpty()) {
                            System.out.printf("%s: H2 was prepared before the halting resource%n", where);
                        }
                    } else {
                        assertThat(h2Gtrids)
                                .as("%s: global ids of H2's branches in doubt after the crash (this cycle's %s,"
                                        + " earlier cycles' %s)", where, gtrid, earlier)
                                .isEqualTo(h2InDoubtExpected ? List.of(gtrid) : List.of());
                    }
                    assertThat(restarted.awaitValue("log-before", Duration.ZERO))
                            .as("%s: transactions in Narayana's log after the crash", where)
                            .isEqualTo(haltIn.equals("commit") ? "1" : "0");
                    assertThat(restarted.awaitValue("left-mikyu", Duration.ZERO))
                            .as("%s: mikyu's branches in doubt after recovery (%s)", where,
                                    restarted.awaitLine("scans", Duration.ZERO)).isEqualTo("0");
                    assertThat(restarted.awaitValue("left-h2", Duration.ZERO))
                            .as("%s: H2's branches in doubt after recovery", where).isEqualTo("0");
                    assertThat(restarted.awaitValue("log-after", Duration.ZERO))
                            .as("%s: transactions in Narayana's log after recovery", where).isEqualTo("0");
                }

                earlier.add(gtrid);
                long t2 = System.nanoTime();
                List<Jms.Received> out;
                List<Jms.Received> in;
                try (Connection c = Jms.plain(store.url()).createConnection()) {
                    out = Jms.drain(c, XaApplication.OUT, haltIn.equals("commit") ? Jms.EXPECTED : Jms.QUIET);
                    // rolled back: the consumed message comes back; committed: it must not (a quiet queue)
                    in = Jms.drain(c, XaApplication.IN, haltIn.equals("commit") ? Jms.QUIET : Duration.ofSeconds(5));
                }
                int rows = db.rows("row-" + cycle);
                System.out.printf("%s: crash %d ms, recovery %d ms, checks %d ms%n", where, (t1 - t0) / 1_000_000,
                        (t2 - t1) / 1_000_000, (System.nanoTime() - t2) / 1_000_000);
                if (haltIn.equals("commit")) {
                    assertThat(Jms.texts(out)).as("%s: messages sent (committed by recovery)", where)
                            .containsExactly("out-" + cycle);
                    assertThat(rows).as("%s: the row inserted (committed by recovery)", where).isEqualTo(1);
                    assertThat(in).as("%s: the consumed message, acknowledged by recovery", where).isEmpty();
                } else {
                    assertThat(out).as("%s: messages sent (rolled back by recovery)", where).isEmpty();
                    assertThat(rows).as("%s: the row inserted (rolled back by recovery)", where).isZero();
                    assertThat(in).as("%s: the consumed message, back within 5 s of the recovery that rolled it back",
                            where).hasSize(1);
                    assertThat(in.get(0).text()).isEqualTo("in-" + cycle);
                    assertThat(in.get(0).redelivered()).as("%s: JMSRedelivered of %s", where, in.get(0)).isTrue();
                    assertThat(in.get(0).deliveryCount()).as("%s: JMSXDeliveryCount of %s", where, in.get(0))
                            .isEqualTo(2);
                }
            }
            assertThat(db.ids()).as("every row after %d cycles", cycles).hasSize(haltIn.equals("commit") ? cycles : 0);
        }
    }
}
