package io.mikyu.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorReportingTest {

    @TempDir
    Path dataDir;

    @Test
    void anUnknownQueueIsOneLineOnStderrAndExitCode1() {
        Cli.Run run = new Cli(dataDir).run("append", "missing", "hello");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString().startsWith("mikyu: error: ").contains("missing");
    }

    @Test
    void anInvalidQueueNameIsOneLineOnStderr() {
        Cli.Run run = new Cli(dataDir).run("create", "no/slashes");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines()).singleElement().asString().startsWith("mikyu: error: ").contains("no/slashes");
    }

    @Test
    void aBadSizeIsAUsageErrorNamingTheUnits() {
        Cli.Run run = new Cli(dataDir).run("create", "events", "--retention-bytes", "10XB");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString()
                .startsWith("mikyu: error: ")
                .contains("invalid size '10XB'", "MiB")
                .endsWith("(see 'mikyu create --help')");
    }

    @Test
    void aBadDurationIsAUsageError() {
        Cli.Run run = new Cli(dataDir).run("create", "events", "--retention-age", "7");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("invalid duration '7'");
    }

    @Test
    void aSegmentSizeOutOfRangeIsAUsageErrorNamingTheOption() {
        Cli.Run run = new Cli(dataDir).run("create", "events", "--segment-bytes", "1KiB");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString()
                .contains("--segment-bytes must be between 4 KiB and 1 GiB");
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        Cli.Run run = new Cli(dataDir).run("read", "events", "0", "--colour");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.errLines()).singleElement().asString().contains("--colour");
    }

    @Test
    void verboseAddsTheStackTrace() {
        Cli.Run run = new Cli(dataDir).run("append", "missing", "hello", "--verbose");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.errLines().get(0)).startsWith("mikyu: error: ");
        assertThat(run.err()).contains("\tat ");
    }

    @Test
    void aNewDataDirectoryIsReadableByItsOwnerOnly() throws Exception {
        Path fresh = dataDir.resolve("fresh");

        new Cli(fresh).run("list");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh))).isEqualTo("rwx------");
    }

    @Test
    void helpOfEveryCommandSaysWhereTheDefaultDataDirectoryIs() {
        Cli.Run run = Cli.runExactly(null, "append", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("--data-dir=DIR", "MIKYU_DATA_DIR", "Default: ", "mikyu");
    }

    @Test
    void versionNamesMikyu() {
        Cli.Run run = Cli.runExactly(null, "--version");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("mikyu ");
    }
}
