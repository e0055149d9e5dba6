package io.mikyu.broker.xa;

import io.mikyu.cli.MikyuCli;
import org.awaitility.core.ConditionTimeoutException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * {@code mikyu daemon} on a data directory, in a child JVM with the test class path, listening on a free loopback
 * port (port 0; the port is read from the line the daemon prints once listening). {@link #sigkill()} kills this one
 * process; {@link #close()} kills it forcibly if it still runs.
 */
final class Daemon implements AutoCloseable {

    private static final String LISTENING = "mikyu daemon listening on ";

    private final Process process;
    private final Path stderr;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final String url;

    private Daemon(Process process, Path stderr, Duration timeout) throws InterruptedException {
        this.process = process;
        this.stderr = stderr;
        Thread reader = new Thread(this::readLines, "daemon-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        try {
            this.url = awaitListening(timeout);
        } catch (AssertionError e) {
            close();
            throw e;
        }
    }

    /** Starts a daemon on {@code dataDir} and waits until it listens. */
    static Daemon start(Path workDir, Path dataDir) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-Xshare:auto",
                "-XX:TieredStopAtLevel=1", "-cp", classPath, MikyuCli.class.getName(), "daemon",
                "--data-dir", dataDir.toString(), "--target", "tcp://127.0.0.1:0"));
        Files.createDirectories(workDir);
        Path err = Files.createTempFile(workDir, "daemon-", ".stderr");
        return new Daemon(new ProcessBuilder(command).redirectError(err.toFile()).start(), err,
                Duration.ofSeconds(60));
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException ignored) {
            // the pipe closes when the daemon dies
        }
    }

    private String awaitListening(Duration timeout) {
        try {
            return await().atMost(timeout).pollInterval(Duration.ofMillis(10))
                    .until(this::addressIfAlive, Objects::nonNull);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("daemon not listening after " + timeout + "; stdout " + lines + "; stderr:\n"
                    + stderrText());
        }
    }

    /** The address the daemon listens on if it said so yet, else null; fails if it exited. */
    private String addressIfAlive() {
        for (String line : lines) {
            if (line.startsWith(LISTENING)) {
                String rest = line.substring(LISTENING.length());
                return rest.substring(0, rest.indexOf(' '));
            }
        }
        if (!process.isAlive()) {
            throw new AssertionError("daemon exited with " + process.exitValue() + "; stdout " + lines
                    + "; stderr:\n" + stderrText());
        }
        return null;
    }

    /** {@code tcp://127.0.0.1:<port>}, without options. */
    String url() {
        return url;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL to the daemon (this one process, by its pid), then waits for it to be gone. */
    void sigkill() throws Exception {
        Process kill = new ProcessBuilder("kill", "-9", String.valueOf(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -9 " + process.pid() + " failed");
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("daemon " + process.pid() + " did not die after SIGKILL");
        }
    }

    String stderrText() {
        try {
            String text = Files.readString(stderr);
            return text.length() > 20_000 ? "..." + text.substring(text.length() - 20_000) : text;
        } catch (IOException e) {
            return "(stderr unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
