package io.mikyu.cli;

import org.awaitility.core.ConditionTimeoutException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * {@code mikyu daemon} in a child JVM with the test class path, as the engine's crash tests run theirs
 * ({@code ChildProcess}): signals go to this one process by its pid.
 */
final class DaemonProcess implements AutoCloseable {

    private static final String LISTENING = "mikyu daemon listening on ";

    private final Process process;
    private final Path stderr;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private DaemonProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        Thread reader = new Thread(this::readLines, "daemon-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    static DaemonProcess start(Path workDir, Path dataDir, String... targets) throws IOException {
        List<String> args = new ArrayList<>();
        for (String target : targets) {
            args.addAll(List.of("--target", target));
        }
        return startWith(workDir, dataDir, args);
    }

    /** As {@link #start(Path, Path, String...)}, with these JVM options (heap size, collector). */
    static DaemonProcess start(List<String> jvmOptions, Path workDir, Path dataDir, String... targets)
            throws IOException {
        List<String> args = new ArrayList<>();
        for (String target : targets) {
            args.addAll(List.of("--target", target));
        }
        return startWith(jvmOptions, workDir, dataDir, args);
    }

    /** {@code mikyu daemon --data-dir DIR} and these arguments. */
    static DaemonProcess startWith(Path workDir, Path dataDir, List<String> args) throws IOException {
        return startWith(List.of("-Xmx256m", "-XX:+UseSerialGC", "-Xshare:auto", "-XX:TieredStopAtLevel=1"),
                workDir, dataDir, args);
    }

    static DaemonProcess startWith(List<String> jvmOptions, Path workDir, Path dataDir, List<String> args)
            throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, MikyuCli.class.getName(), "daemon",
                "--data-dir", dataDir.toString()));
        command.addAll(args);
        Path err = Files.createTempFile(workDir, "daemon-", ".stderr");
        return new DaemonProcess(new ProcessBuilder(command).redirectError(err.toFile()).start(), err);
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException ignored) {
            // the pipe closes when the child dies
        }
    }

    /** Waits for the one line the daemon prints when listening; returns the addresses it names. */
    List<String> awaitListening(Duration timeout) throws InterruptedException {
        String rest = listeningLine(timeout).substring(LISTENING.length());
        return Arrays.stream(rest.substring(0, rest.indexOf(" (data ")).split(" ")).toList();
    }

    /** Waits for the line the daemon prints when listening, and returns it whole. */
    String listeningLine(Duration timeout) {
        try {
            return await().atMost(timeout).pollInterval(Duration.ofMillis(10))
                    .until(this::listeningLineIfAlive, Objects::nonNull);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("daemon not listening after " + timeout + "; stdout " + lines + "; stderr:\n"
                    + stderrText());
        }
    }

    /** The listening line if printed yet, else null; fails if the daemon exited without it. */
    private String listeningLineIfAlive() {
        for (String line : lines) {
            if (line.startsWith(LISTENING)) {
                return line;
            }
        }
        if (!process.isAlive()) {
            throw new AssertionError("daemon exited with " + process.exitValue() + "; stdout " + lines
                    + "; stderr:\n" + stderrText());
        }
        return null;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    void sigkill() throws Exception {
        signal("-9");
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("daemon " + process.pid() + " did not die after SIGKILL");
        }
    }

    void sigterm() throws Exception {
        signal("-TERM");
    }

    private void signal(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", signal, String.valueOf(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill " + signal + " " + process.pid() + " failed");
        }
    }

    int waitForExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("daemon did not exit within " + timeout + "; stderr:\n" + stderrText());
        }
        return process.exitValue();
    }

    String stderrText() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            return "(stderr unreadable: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
