package io.mikyu.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The data commands with {@code --target}: the same commands, on the store a daemon serves. */
class TargetCommandsTest {

    private static final Pattern TOKEN = Pattern.compile(" token=(\\S+) ");

    @TempDir
    Path dataDir;

    @TempDir
    Path elsewhere;

    InProcessDaemon daemon;
    Cli cli;

    @BeforeEach
    void setUp() {
        daemon = new InProcessDaemon(dataDir);
        cli = Cli.target(daemon.uri());
    }

    @AfterEach
    void tearDown() {
        daemon.close();
    }

    @Test
    void logQueueCommandsWorkOnTheDaemonsStore() {
        assertThat(cli.run("create", "events", "--durability", "sync").out()).contains("created log queue events");
        assertThat(cli.run("append", "events", "--key", "k", "--header", "type=a", "hello").out().strip())
                .isEqualTo("0");
        assertThat(cli.run("append", "events", "world").out().strip()).isEqualTo("1");

        assertThat(cli.run("read", "events", "0", "--count", "2").outLines())
                .satisfiesExactly(l -> assertThat(l).startsWith("offset=0 ").endsWith("key=k headers=type=a payload=hello"),
                        l -> assertThat(l).startsWith("offset=1 ").endsWith("payload=world"));
        assertThat(cli.run("tail", "events", "--group", "audit", "--count", "1").outLines())
                .singleElement().asString().endsWith("payload=hello");
        assertThat(cli.run("groups", "events").outLines()).anyMatch(l -> l.matches("audit\\s+1\\s+1\\s+yes"));
        assertThat(cli.run("commit", "events", "audit", "2").out()).contains("committed at offset 2 (lag 0)");
        assertThat(cli.run("groups", "reset", "events", "audit", "--to-earliest").out()).contains("at offset 0");
        assertThat(cli.run("groups", "delete", "events", "audit").exitCode()).isZero();
        assertThat(cli.run("compact", "events").exitCode()).isZero();
        assertThat(cli.run("list").outLines()).containsExactly("log/events");
        assertThat(cli.run("stats", "events").out()).contains("records           2");

        assertThat(daemon.store().log("events").endOffset()).isEqualTo(2);
        assertThat(cli.run("delete", "events").exitCode()).isZero();
        assertThat(daemon.store().list(io.mikyu.engine.QueueKind.LOG)).isEmpty();
    }

    @Test
    void taskQueueCommandsWorkOnTheDaemonsStore() {
        cli.run("create", "--type", "task", "jobs", "--max-attempts", "1");
        assertThat(cli.run("enqueue", "jobs", "one").out().strip()).isEqualTo("0");
        cli.run("enqueue", "jobs", "two");
        cli.run("enqueue", "jobs", "--header", "region=eu", "three");

        assertThat(cli.run("peek", "jobs").out()).contains("id=0 ");
        assertThat(cli.run("browse", "jobs").outLines()).hasSize(3);
        String first = token(cli.run("dequeue", "jobs", "--header-equals", "region=eu"));
        assertThat(cli.run("ack", "jobs", first).out().strip()).isEqualTo("acked task 2");
        String second = token(cli.run("dequeue", "jobs", "--lease", "10s"));
        assertThat(cli.run("extend", "jobs", second, "--lease", "60s").exitCode()).isZero();
        assertThat(cli.run("nack", "jobs", second, "--reason", "broken").exitCode()).isZero();

        assertThat(cli.run("dlq", "jobs").out()).contains("broken", "payload=one");
        assertThat(cli.run("dlq", "redrive", "jobs").out()).contains("moved 1 dead letter");
        assertThat(daemon.store().taskQueue("jobs").counts().ready()).isEqualTo(2);
    }

    @Test
    void statsShowsTheDaemonsEngineCountersSinceItStarted() {
        cli.run("create", "events");
        cli.run("append", "events", "a");
        cli.run("append", "events", "b");

        Cli.Run run = cli.run("stats");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("target            " + daemon.uri())
                .contains("location          " + dataDir)
                .contains("appended          2 records")
                .containsPattern("group commits     [1-9]");
    }

    @Test
    void anErrorFromTheBrokerIsOneLine() {
        Cli.Run run = cli.run("append", "missing", "hello");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mikyu: error: ").contains("missing");
    }

    @Test
    void anUnreachableDaemonIsOneLineNamingIt() {
        Cli.Run run = Cli.runExactly(null, "list", "--target", "tcp://127.0.0.1:1");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString()
                .startsWith("mikyu: error: cannot connect to mikyu broker at tcp://127.0.0.1:1");
    }

    @Test
    void aBadTargetIsOneLine() {
        Cli.Run run = Cli.runExactly(null, "list", "--target", "http://example");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mikyu: error: invalid --target");
    }

    @Test
    void targetAndDataDirTogetherAreAUsageError() {
        Cli.Run run = Cli.runExactly(null, "list", "--target", daemon.uri(), "--data-dir", elsewhere.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("mutually exclusive");
    }

    private static String token(Cli.Run dequeue) {
        Matcher m = TOKEN.matcher(dequeue.out());
        assertThat(m.find()).as(dequeue.out() + dequeue.err()).isTrue();
        return m.group(1);
    }
}
