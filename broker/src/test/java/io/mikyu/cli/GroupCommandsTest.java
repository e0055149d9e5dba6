package io.mikyu.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class GroupCommandsTest {

    @TempDir
    Path dataDir;

    Cli cli;

    @BeforeEach
    void setUp() {
        cli = new Cli(dataDir);
        cli.run("create", "events");
        cli.runWithStdin("a\nb\nc\nd\n", "append", "events", "-");
    }

    @Test
    void commitMovesTheGroupAndGroupsShowsItsPositionAndLag() {
        Cli.Run commit = cli.run("commit", "events", "audit", "3");

        assertThat(commit.exitCode()).isZero();
        assertThat(commit.out()).contains("committed at offset 3 (lag 1)");
        assertThat(cli.run("groups", "events").outLines())
                .anyMatch(line -> line.matches("audit\\s+3\\s+1\\s+yes"));
    }

    @Test
    void commitPastTheEndFails() {
        Cli.Run run = cli.run("commit", "events", "audit", "99");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("offset 99 is past the end of events");
    }

    @Test
    void groupsSaysSoWhenThereAreNone() {
        assertThat(cli.run("groups", "events").out()).contains("no consumer groups on events");
    }

    @Test
    void resetMovesTheGroupToTheEarliestOrLatestRecordOrAnOffset() {
        cli.run("commit", "events", "audit", "2");

        assertThat(cli.run("groups", "reset", "events", "audit", "--to-earliest").out()).contains("at offset 0 (lag 4)");
        assertThat(cli.run("groups", "reset", "events", "audit", "--to-latest").out()).contains("at offset 4 (lag 0)");
        assertThat(cli.run("groups", "reset", "events", "audit", "--to-offset", "1").out()).contains("at offset 1 (lag 3)");
    }

    @Test
    void resetToATimeBeforeEveryRecordMovesToTheFirst() {
        Cli.Run run = cli.run("groups", "reset", "events", "audit", "--to-time", "2000-01-01T00:00:00Z");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("at offset 0");
    }

    @Test
    void resetNeedsExactlyOneTarget() {
        Cli.Run none = cli.run("groups", "reset", "events", "audit");
        Cli.Run two = cli.run("groups", "reset", "events", "audit", "--to-earliest", "--to-latest");

        assertThat(none.exitCode()).isEqualTo(2);
        assertThat(two.exitCode()).isEqualTo(2);
        assertThat(two.errLines()).hasSize(1);
    }

    @Test
    void resetRejectsATimeThatIsNotIso8601() {
        Cli.Run run = cli.run("groups", "reset", "events", "audit", "--to-time", "yesterday");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("invalid --to-time 'yesterday'");
    }

    @Test
    void deleteRemovesTheGroup() {
        cli.run("commit", "events", "audit", "1");

        assertThat(cli.run("groups", "delete", "events", "audit").out()).contains("deleted group audit on events");
        assertThat(cli.run("groups", "events").out()).contains("no consumer groups");
    }
}
