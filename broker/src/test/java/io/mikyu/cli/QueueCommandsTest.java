package io.mikyu.cli;

import io.mikyu.engine.Entry;
import io.mikyu.engine.Headers;
import io.mikyu.engine.Mikyu;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class QueueCommandsTest {

    @TempDir
    Path dataDir;

    Cli cli;

    @BeforeEach
    void setUp() {
        cli = new Cli(dataDir);
    }

    @Test
    void createPrintsTheQueueAndItsSettings() {
        Cli.Run run = cli.run("create", "--type", "log", "events", "--durability", "sync", "--retention-age", "7d",
                "--retention-bytes", "10GiB", "--segment-bytes", "64MiB");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("created log queue events")
                .contains("durability sync", "retention age 7d", "retention bytes 10 GiB", "segment 64 MiB");
    }

    @Test
    void createFailsWhenTheQueueExists() {
        cli.run("create", "events");

        Cli.Run run = cli.run("create", "events");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mikyu: error: ").contains("events");
    }

    @Test
    void appendPrintsTheOffsetOfTheNewRecord() {
        cli.run("create", "events");

        assertThat(cli.run("append", "events", "first").out()).isEqualTo("0" + System.lineSeparator());
        assertThat(cli.run("append", "events", "second").out()).isEqualTo("1" + System.lineSeparator());
    }

    @Test
    void readPrintsOffsetTimeKeyHeadersAndPayload() {
        cli.run("create", "events");
        cli.run("append", "events", "--key", "user-1", "--header", "type=signup", "--header", "region=eu", "hello world");

        Cli.Run run = cli.run("read", "events", "0");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out().strip())
                .matches("offset=0 time=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z key=user-1"
                        + " headers=type=signup,region=eu payload=hello world");
    }

    @Test
    void readPrintsCountRecordsFromTheOffset() {
        cli.run("create", "events");
        for (String payload : new String[] {"a", "b", "c", "d"}) {
            cli.run("append", "events", payload);
        }

        Cli.Run run = cli.run("read", "events", "1", "--count", "2");

        assertThat(run.outLines()).hasSize(2);
        assertThat(run.outLines().get(0)).startsWith("offset=1 ").endsWith("payload=b");
        assertThat(run.outLines().get(1)).startsWith("offset=2 ").endsWith("payload=c");
    }

    @Test
    void readPrintsBytesThatAreNotTextAsBase64OrHex() {
        try (Mikyu store = Mikyu.open(dataDir)) {
            store.createLog("bin").append(new Entry(null, Headers.EMPTY, new byte[] {0, 1, 2, (byte) 0xff}, Entry.NO_TIMESTAMP));
        }

        assertThat(cli.run("read", "bin", "0").out()).contains("payload=base64:AAEC/w==");
        assertThat(cli.run("read", "bin", "0", "--binary-as", "hex").out()).contains("payload=hex:000102ff");
    }

    @Test
    void readPastTheEndSaysWhereTheRecordsAre() {
        cli.run("create", "events");
        cli.run("append", "events", "only");

        Cli.Run run = cli.run("read", "events", "5");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("offset 5 is past the end of events (its records are 0..0)");
    }

    @Test
    void appendFromStdinAppendsOneRecordPerLine() {
        cli.run("create", "events");

        Cli.Run run = cli.runWithStdin("one\ntwo\nthree\n", "append", "events", "-");

        assertThat(run.out()).contains("appended 3 records from offset 0");
        assertThat(cli.run("read", "events", "0", "--count", "10").outLines())
                .extracting(line -> line.substring(line.indexOf("payload=") + "payload=".length()))
                .containsExactly("one", "two", "three");
    }

    @Test
    void tailWithCountPrintsThatManyRecordsAndStops() {
        cli.run("create", "events");
        cli.runWithStdin("a\nb\nc\n", "append", "events", "--stdin");

        Cli.Run run = cli.run("tail", "events", "--from-start", "--count", "2");

        assertThat(run.exitCode()).isZero();
        assertThat(run.outLines()).hasSize(2);
        assertThat(run.outLines().get(1)).startsWith("offset=1 ").endsWith("payload=b");
    }

    @Test
    void tailWithAGroupResumesWhereTheGroupCommitted() {
        cli.run("create", "events");
        cli.runWithStdin("a\nb\nc\n", "append", "events", "-");

        Cli.Run first = cli.run("tail", "events", "--group", "audit", "--count", "2");
        Cli.Run second = cli.run("tail", "events", "--group", "audit", "--count", "1");

        assertThat(first.outLines()).extracting(l -> l.split(" ")[0]).containsExactly("offset=0", "offset=1");
        assertThat(second.outLines()).extracting(l -> l.split(" ")[0]).containsExactly("offset=2");
    }

    @Test
    void tailFromAnOffsetStartsThere() {
        cli.run("create", "events");
        cli.runWithStdin("a\nb\nc\n", "append", "events", "-");

        assertThat(cli.run("tail", "events", "--from", "2", "--count", "1").out()).startsWith("offset=2 ");
    }

    @Test
    void tailRejectsAGroupTogetherWithAStartingPoint() {
        cli.run("create", "events");

        Cli.Run run = cli.run("tail", "events", "--group", "g", "--from-start", "--count", "1");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("mikyu groups reset");
    }

    @Test
    void listPrintsEachQueueWithItsKind() {
        cli.run("create", "orders");
        cli.run("create", "events");

        assertThat(cli.run("list").outLines()).containsExactly("log/events", "log/orders");
        assertThat(cli.run("list", "--type", "log").outLines()).containsExactly("events", "orders");
        assertThat(cli.run("list", "--type", "task").outLines()).isEmpty();
    }

    @Test
    void deleteRemovesTheQueue() {
        cli.run("create", "events");

        Cli.Run run = cli.run("delete", "events");

        assertThat(run.out()).contains("deleted log queue events");
        assertThat(cli.run("list").outLines()).isEmpty();
    }

    @Test
    void deleteOfAMissingQueueFails() {
        Cli.Run run = cli.run("delete", "nothing");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().isEqualTo("mikyu: error: no log or task queue named 'nothing'");
    }

    @Test
    void statsPrintsEngineCountersAndOneLinePerQueue() {
        cli.run("create", "events");
        cli.run("append", "events", "hello");

        Cli.Run run = cli.run("stats");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("group commits", "fsyncs", "ring cache", "QUEUE");
        assertThat(run.outLines()).anyMatch(line -> line.matches("events\\s+0\\s+1\\s+1\\s+.*"));
    }

    @Test
    void statsOfAQueuePrintsItsOffsetsAndSettings() {
        cli.run("create", "events", "--compacted");
        cli.run("append", "events", "hello");

        Cli.Run run = cli.run("stats", "events");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("log/events", "compacted", "0 (start) .. 1 (next append)");
    }

    @Test
    void compactPrintsHowManyRecordsItRemoved() {
        cli.run("create", "events", "--compacted");
        cli.run("append", "events", "--key", "k", "v1");

        Cli.Run run = cli.run("compact", "events");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).matches("(?s)compaction removed \\d+ records from events.*");
    }
}
