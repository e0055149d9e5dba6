package io.mikyu.spring.boot.roundtrip;

import org.awaitility.core.ConditionTimeoutException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * {@code mikyu daemon} on a data directory in a child JVM with the test class path, on a free loopback port (port
 * 0; the port is read from the line the daemon prints once listening). {@link #close()} kills it (SIGKILL): the
 * tests want it gone at once, as when its machine fails.
 */
final class DaemonProcess implements AutoCloseable {

    private static final String LISTENING = "mikyu daemon listening on ";

    private final Process process;
    private final Path stderr;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final String url;

    private DaemonProcess(Process process, Path stderr) throws InterruptedException {
        this.process = process;
        this.stderr = stderr;
        Thread reader = new Thread(this::readLines, "daemon-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        try {
            this.url = awaitListening(Duration.ofSeconds(60));
        } catch (AssertionError | RuntimeException e) {
            close();
            throw e;
        }
    }

    static DaemonProcess start(Path dataDir) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path err = Files.createTempFile("mikyu-daemon-", ".stderr");
        Process process = new ProcessBuilder(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", classPath, "io.mikyu.cli.MikyuCli", "daemon", "--data-dir", dataDir.toString(),
                "--target", "tcp://127.0.0.1:0").redirectError(err.toFile()).start();
        return new DaemonProcess(process, err);
    }

    /** {@code tcp://127.0.0.1:<port>}. */
    String url() {
        return url;
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException ignored) {
            // the pipe closes when the daemon exits
        }
    }

    private String awaitListening(Duration timeout) {
        try {
            await().atMost(timeout).pollInterval(Duration.ofMillis(20))
                    .until(() -> listeningLine() != null || !process.isAlive());
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("daemon not listening after " + timeout + "; stderr:\n" + stderrText());
        }
        String line = listeningLine();
        if (line == null) {
            throw new AssertionError("daemon exited with " + process.exitValue() + "; stderr:\n" + stderrText());
        }
        String rest = line.substring(LISTENING.length());
        return rest.substring(0, rest.indexOf(' '));
    }

    private String listeningLine() {
        for (String line : lines) {
            if (line.startsWith(LISTENING)) {
                return line;
            }
        }
        return null;
    }

    private String stderrText() {
        try {
            String text = Files.readString(stderr);
            return text.length() > 10_000 ? "..." + text.substring(text.length() - 10_000) : text;
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** SIGKILL, then waits until it is gone. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError("daemon " + process.pid() + " still there 30 s after SIGKILL");
            }
            Files.deleteIfExists(stderr);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException ignored) {
            // a temporary file left behind
        }
    }
}
