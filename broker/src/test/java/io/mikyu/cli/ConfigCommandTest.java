package io.mikyu.cli;

import io.mikyu.engine.security.PasswordHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code mikyu config} and {@code mikyu passwd}. */
class ConfigCommandTest {

    @TempDir
    Path dir;

    @Test
    void configPrintsEveryKeyWithItsValueAndSource() throws Exception {
        Path file = Files.writeString(dir.resolve("mikyu.conf"), """
                flushInterval = 1s
                metrics.port = 9464
                tls.keystorePassword = secret
                users.app.password = $pbkdf2-sha256$i=1000$AAAA$BBBB
                """);
        Cli.Run run = Cli.runExactly(null, "config", "--config", file.toString(), "--data-dir",
                dir.resolve("data").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.outLines()).anyMatch(l -> l.matches("flushInterval\\s+1s\\s+file .*mikyu\\.conf"));
        assertThat(run.outLines()).anyMatch(l -> l.matches("metrics\\.port\\s+9464\\s+file .*"));
        assertThat(run.outLines()).anyMatch(l -> l.matches("maxRecordBytes\\s+8MiB\\s+default"));
        assertThat(run.outLines()).anyMatch(l -> l.matches("dataDir\\s+.*data\\s+command line"));
        assertThat(run.outLines()).anyMatch(l -> l.matches("tls\\.keystorePassword\\s+\\*\\*\\*\\*\\s+file .*"));
        assertThat(run.outLines()).anyMatch(l -> l.matches("users\\.app\\.password\\s+\\*\\*\\*\\*\\s+file .*"));
        assertThat(run.out()).doesNotContain("secret").doesNotContain("BBBB");
    }

    @Test
    void configRefusesAnUnknownKeySayingWhichAndWhere() throws Exception {
        Path file = Files.writeString(dir.resolve("mikyu.conf"), "flushIntervall = 1s\n");
        Cli.Run run = Cli.runExactly(null, "config", "--config", file.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("unknown configuration key 'flushIntervall'").contains(file.toString());
    }

    @Test
    void passwdPrintsAConfigLineWithASaltedHashOfThePassword() {
        CommandLine cli = MikyuCli.newCommandLine();
        PasswdCommand passwd = cli.getSubcommands().get("passwd").getCommand();
        passwd.input = new ByteArrayInputStream("open sesame\n".getBytes(StandardCharsets.UTF_8));
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        assertThat(cli.execute("passwd", "--iterations", "1000", "app")).isZero();
        String line = out.toString().trim();
        assertThat(line).startsWith("users.app.password = $pbkdf2-sha256$i=1000$");
        String hash = line.substring(line.indexOf('=') + 1).trim();
        assertThat(PasswordHash.verify(hash, "open sesame".toCharArray())).isTrue();
    }
}
