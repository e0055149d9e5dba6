package io.mikyu.cli;

import io.mikyu.broker.server.BrokerOptions;
import io.mikyu.broker.server.BrokerServer;
import io.mikyu.engine.Entry;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.config.MikyuConfig;
import io.mikyu.engine.security.PasswordHash;
import io.mikyu.engine.security.SecurityRealm;
import io.mikyu.engine.XidFormat;
import io.mikyu.transport.Endpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mikyu xa list | commit | rollback}, on a data directory and on a daemon. */
class XaCommandsTest {

    /** An XID in the XA layout: format 131077, gtrid 0a1b2c, bqual 01 (or 02). */
    private static final String XA_TEXT = "131077:0a1b2c:01";
    private static final String OTHER_TEXT = "131077:0a1b2c:02";
    /** An id prepared through the engine API, not in the XA layout. */
    private static final byte[] RAW = "plain".getBytes(StandardCharsets.US_ASCII);
    private static final String RAW_TEXT = "0x" + HexFormat.of().formatHex(RAW);

    @TempDir
    Path dataDir;

    /** Prepares XA_TEXT (append to events, ack a jobs task, enqueue to jobs) and RAW (append to events). */
    private static void prepareTwo(Mikyu store, String owner) throws InterruptedException {
        store.createLog("events");
        store.createTaskQueue("jobs").enqueue(Task.of("job"));
        LeasedTask job = store.taskQueue("jobs").dequeue(1, Duration.ofMinutes(5), Duration.ZERO, null).get(0);
        store.beginTransaction().append("events", Entry.of("xa")).ack("jobs", job.token())
                .enqueue("jobs", Task.of("next")).prepare(XidFormat.fromText(XA_TEXT), owner);
        store.beginTransaction().append("events", Entry.of("raw")).prepare(RAW);
    }

    @Test
    void listsCommitsAndRollsBackOnADataDirectory() throws Exception {
        try (Mikyu store = Mikyu.open(dataDir)) {
            prepareTwo(store, "alice");
        }
        Cli cli = new Cli(dataDir);
        Cli.Run list = cli.run("xa", "list");
        assertThat(list.exitCode()).isZero();
        assertThat(list.outLines()).satisfiesExactly(
                l -> assertThat(l).matches(XA_TEXT + " owner=alice age=\\d+s prepared=\\S+Z queues=events,jobs"),
                l -> assertThat(l).matches(RAW_TEXT + " owner=- age=\\d+s prepared=\\S+Z queues=events"));

        Cli.Run commit = cli.run("xa", "commit", XA_TEXT);
        assertThat(commit.exitCode()).isZero();
        assertThat(commit.out().strip()).isEqualTo("committed " + XA_TEXT);
        Cli.Run rollback = cli.run("xa", "rollback", RAW_TEXT);
        assertThat(rollback.exitCode()).isZero();
        assertThat(rollback.out().strip()).isEqualTo("rolled back " + RAW_TEXT);
        assertThat(cli.run("xa", "list").outLines()).containsExactly("no in-doubt transactions");

        try (Mikyu store = Mikyu.open(dataDir)) {
            assertThat(store.log("events").read(0, 10)).extracting(r -> r.payloadAsString()).containsExactly("xa");
            assertThat(store.taskQueue("jobs").browse(10, null)).extracting(LeasedTask::payloadAsString)
                    .containsExactly("next");
        }
    }

    @Test
    void anUnknownOrMalformedXidIsOneLineAndANonZeroExit() {
        Cli cli = new Cli(dataDir);
        Cli.Run unknown = cli.run("xa", "commit", OTHER_TEXT);
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.out()).isEmpty();
        assertThat(unknown.errLines()).containsExactly("mikyu: error: no in-doubt transaction " + OTHER_TEXT
                + " (see 'mikyu xa list')");
        assertThat(cli.run("xa", "rollback", "0x00ff").errLines()).containsExactly(
                "mikyu: error: no in-doubt transaction 0x00ff (see 'mikyu xa list')");

        Cli.Run malformed = cli.run("xa", "rollback", "12:zz:01");
        assertThat(malformed.exitCode()).isEqualTo(2);
        assertThat(malformed.errLines()).singleElement().asString().startsWith("mikyu: error: invalid XID: ")
                .endsWith("(see 'mikyu xa rollback --help')");

        Cli.Run bare = Cli.runExactly(null, "xa");
        assertThat(bare.exitCode()).isEqualTo(2);
        assertThat(bare.err()).contains("missing subcommand: list, commit or rollback");
    }

    @Test
    void eachCommandHasHelp() {
        assertThat(Cli.runExactly(null, "xa", "--help").out()).contains("in-doubt XA transactions")
                .contains("list").contains("commit").contains("rollback");
        assertThat(Cli.runExactly(null, "xa", "list", "--help").out()).contains("oldest first", "--data-dir",
                "--target");
        assertThat(Cli.runExactly(null, "xa", "commit", "--help").out()).contains("XID", "--target");
        assertThat(Cli.runExactly(null, "xa", "rollback", "--help").out()).contains("delivered again");
        assertThat(Cli.runExactly(null, "--help").out()).contains("xa");
    }

    @Test
    void worksOnADaemonsStore() throws Exception {
        try (InProcessDaemon daemon = new InProcessDaemon(dataDir)) {
            prepareTwo(daemon.store(), "alice");
            Cli cli = Cli.target(daemon.uri());
            assertThat(cli.run("xa", "list").outLines()).satisfiesExactly(
                    l -> assertThat(l).startsWith(XA_TEXT + " owner=alice "),
                    l -> assertThat(l).startsWith(RAW_TEXT + " owner=- "));
            assertThat(cli.run("xa", "rollback", XA_TEXT).out().strip()).isEqualTo("rolled back " + XA_TEXT);
            assertThat(cli.run("xa", "commit", RAW_TEXT).out().strip()).isEqualTo("committed " + RAW_TEXT);
            Cli.Run unknown = cli.run("xa", "commit", XA_TEXT);
            assertThat(unknown.exitCode()).isEqualTo(1);
            assertThat(unknown.errLines()).containsExactly("mikyu: error: no in-doubt transaction " + XA_TEXT
                    + " (see 'mikyu xa list')");
            assertThat(cli.run("xa", "list").outLines()).containsExactly("no in-doubt transactions");
            assertThat(daemon.store().inDoubtTransactions()).isEmpty();
            assertThat(daemon.store().log("events").read(0, 10)).extracting(r -> r.payloadAsString())
                    .containsExactly("raw");
        }
    }

    @Test
    void onADaemonWithUsersEachSeesWhatTheyMayDecide() throws Exception {
        SecurityRealm realm = SecurityRealm.from(MikyuConfig.load(null, Map.of(
                "users.alice.password", PasswordHash.hash("a-pass".toCharArray(), 1_000),
                "users.alice.roles", "apps",
                "users.bob.password", PasswordHash.hash("b-pass".toCharArray(), 1_000),
                "users.bob.roles", "apps",
                "roles.apps.produce", "events, jobs",
                "roles.apps.consume", "events, jobs"), "test"));
        try (Mikyu store = Mikyu.open(dataDir);
             BrokerServer server = BrokerServer.start(store, BrokerOptions.defaults(
                     List.of(Endpoint.parse("tcp://127.0.0.1:0"))).withRealm(realm))) {
            prepareTwo(store, "alice");
            String uri = server.endpoints().get(0).toString();
            Cli alice = Cli.target(uri + "?user=alice&password=a-pass");
            Cli bob = Cli.target(uri + "?user=bob&password=b-pass");

            assertThat(bob.run("xa", "list").outLines()).containsExactly("no in-doubt transactions");
            Cli.Run refused = bob.run("xa", "commit", XA_TEXT);
            assertThat(refused.exitCode()).isEqualTo(1);
            assertThat(refused.errLines()).containsExactly("mikyu: error: no in-doubt transaction " + XA_TEXT
                    + " (see 'mikyu xa list')");
            assertThat(alice.run("xa", "list").outLines()).as("her own; not the one without owner")
                    .singleElement().asString().startsWith(XA_TEXT + " owner=alice ");
            assertThat(alice.run("xa", "commit", XA_TEXT).exitCode()).isZero();
            assertThat(store.inDoubtTransactions()).extracting(p -> XidFormat.toText(p.xid()))
                    .containsExactly(RAW_TEXT);
        }
    }
}
