package io.mikyu.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mikyu repl} with a script on standard input: the same commands, one store kept open between them. */
class ShellTest {

    @TempDir
    Path dataDir;

    @TempDir
    Path otherDir;

    @Test
    void runsEachLineAsACommandOnOneOpenStore() {
        Cli.Run run = new Cli(dataDir).shell("""
                create events
                append events "hello world"
                # a comment, then an empty line

                append events --key k second
                read events 0 --count 2
                stats
                """);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).contains("created log queue events", "payload=hello world", "key=k ", "payload=second")
                // Counters count from when the store was opened: one store for the whole session.
                .contains("appended          2 records");
    }

    @Test
    void aFailingCommandIsOneLineAndTheShellGoesOnThenExitsWithItsStatus() {
        Cli.Run run = new Cli(dataDir).shell("""
                append missing hello
                create events
                list
                """);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mikyu: error: ").contains("missing");
        assertThat(run.outLines()).contains("log/events");
    }

    @Test
    void exitEndsTheScript() {
        Cli.Run run = new Cli(dataDir).shell("create events\nexit\ncreate never\n");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("created log queue events").doesNotContain("never");
    }

    @Test
    void worksOnADaemonGivenWithTarget() {
        try (InProcessDaemon daemon = new InProcessDaemon(dataDir)) {
            Cli.Run run = Cli.target(daemon.uri()).shell("""
                    status
                    create --type task jobs
                    enqueue jobs "send mail"
                    dequeue jobs
                    stats
                    """);

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("daemon " + daemon.uri(), "payload=send mail", "target            "
                    + daemon.uri());
            assertThat(daemon.store().taskQueue("jobs").counts().inFlight()).isEqualTo(1);
        }
    }

    @Test
    void openAndConnectSwitchTheStore() {
        try (InProcessDaemon daemon = new InProcessDaemon(otherDir)) {
            Cli.Run run = new Cli(dataDir).shell("create local\n"
                    + "connect " + daemon.uri() + "\n"
                    + "create remote\n"
                    + "status\n"
                    + "list\n"
                    + "open " + dataDir + "\n"
                    + "list\n");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.outLines()).containsSubsequence("connected to " + daemon.uri(), "log/remote",
                    "opened " + dataDir, "log/local");
            assertThat(daemon.store().list(io.mikyu.engine.QueueKind.LOG)).containsExactly("remote");
        }
    }

    @Test
    void closeFreesTheDataDirectoryForOtherProcesses() {
        Cli.Run run = new Cli(dataDir).shell("create events\nclose\n");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("closed " + dataDir);
    }

    @Test
    void helpListsTheCommandsAndTheShellsOwn() {
        Cli.Run run = new Cli(dataDir).shell("help\nhelp append\n");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("append", "dequeue", "open", "connect", "exit", "Usage: mikyu append");
    }

    @Test
    void commandsThatCannotRunInTheShellAreRefused() {
        Cli.Run run = new Cli(dataDir).shell("""
                daemon
                create events
                append events -
                read events 0 --data-dir /elsewhere
                """);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).hasSize(3)
                .anySatisfy(l -> assertThat(l).contains("'daemon' is not available in the shell"))
                .anySatisfy(l -> assertThat(l).contains("give the payload on the line"))
                .anySatisfy(l -> assertThat(l).contains("'open DIR' or 'connect URI'"));
    }

    @Test
    void anUnclosedQuoteIsOneLine() {
        Cli.Run run = new Cli(dataDir).shell("create events\nappend events \"oops\n");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().startsWith("mikyu: error: cannot read the line");
    }
}
