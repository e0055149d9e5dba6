package io.mikyu.broker.xa;

import org.awaitility.core.ConditionTimeoutException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A child JVM running a test-side {@code main} class with the test class path: an application or a store that a
 * test kills. The child reports with {@link #say(String)} (lines ending in {@code " $"}); the parent keeps only
 * complete lines, so a line cut by a kill is never read. Every child also halts by itself after
 * {@link #MAX_LIFETIME}, and {@link #close()} kills it forcibly, so no child outlives its test.
 */
final class ChildJvm implements AutoCloseable {

    /** The longest a child lives, whatever the parent does. */
    static final Duration MAX_LIFETIME = Duration.ofMinutes(3);
    private static final String LIFETIME_PROPERTY = "mikyu.xa.child.maxLifetimeMillis";
    private static final PrintStream OUT = new PrintStream(System.out, false, StandardCharsets.UTF_8);

    private final String name;
    private final Process process;
    private final Path stderr;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private ChildJvm(String name, Process process, Path stderr) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.reader = new Thread(this::readLines, "child-stdout-" + process.pid());
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** Starts {@code mainClass} with {@code -Dk=v} for each of {@code properties}, and {@code args}. */
    static ChildJvm start(Path workDir, String name, Class<?> mainClass, Map<String, String> properties,
                          String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-Xshare:auto",
                "-XX:TieredStopAtLevel=1", "-D" + LIFETIME_PROPERTY + "=" + MAX_LIFETIME.toMillis()));
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("-cp", classPath, mainClass.getName()));
        command.addAll(List.of(args));
        Files.createDirectories(workDir);
        Path err = Files.createTempFile(workDir, name + "-", ".stderr");
        Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
        return new ChildJvm(name, process, err);
    }

    /** For the child, first thing in {@code main}: halt after the parent's lifetime bound, whatever happens. */
    static void boundLifetime() {
        long millis = Long.getLong(LIFETIME_PROPERTY, MAX_LIFETIME.toMillis());
        new Timer("lifetime-bound", true).schedule(new TimerTask() {
            @Override
            public void run() {
                System.err.println("child lived " + millis + " ms: halting");
                Runtime.getRuntime().halt(99);
            }
        }, millis);
    }

    /** For the child, once it has said what the test waits for: blocks until the test kills this JVM. */
    static void blockUntilKilled() throws InterruptedException {
        new CountDownLatch(1).await();
    }

    /** For the child: one complete line the parent will read. */
    static void say(String line) {
        synchronized (OUT) {
            OUT.print(line + " $\n");
            OUT.flush();
        }
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.endsWith(" $")) {
                    lines.add(line.substring(0, line.length() - 2));
                }
            }
        } catch (IOException ignored) {
            // the pipe closes when the child dies
        }
    }

    /** The first line starting with {@code prefix}, waiting for it; fails with the child's output otherwise. */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        String said = lineIfAlive(prefix);
        if (said != null) {
            return said;
        }
        try {
            if (!timeout.isZero()) {
                return await().atMost(timeout).pollInterval(Duration.ofMillis(5))
                        .until(() -> lineIfAlive(prefix), Objects::nonNull);
            }
        } catch (ConditionTimeoutException e) {
            // said below, with what the child did say
        }
        throw new AssertionError(name + " did not say '" + prefix + "' within " + timeout + "; " + describe());
    }

    /** The first line starting with {@code prefix} if said yet, else null; fails if the child exited without it. */
    private String lineIfAlive(String prefix) throws InterruptedException {
        String line = firstLine(prefix);
        if (line == null && !process.isAlive()) {
            reader.join(2_000);     // what it said last may still be in the pipe
            line = firstLine(prefix);
            if (line == null) {
                throw new AssertionError(name + " exited with " + process.exitValue() + " before saying '"
                        + prefix + "'; " + describe());
            }
        }
        return line;
    }

    private String firstLine(String prefix) {
        for (String line : lines) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return null;
    }

    /** The rest of the first line starting with {@code prefix + " "}. */
    String awaitValue(String prefix, Duration timeout) throws InterruptedException {
        return awaitLine(prefix + " ", timeout).substring(prefix.length() + 1);
    }

    /** Waits for the child to exit by itself; fails unless it exits with {@code expected}. */
    void awaitExit(int expected, Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(name + " did not exit within " + timeout + "; " + describe());
        }
        reader.join(5_000);
        if (process.exitValue() != expected) {
            throw new AssertionError(name + " exited with " + process.exitValue() + ", not " + expected + "; "
                    + describe());
        }
    }

    /** SIGKILL to this one process (by its pid), then waits for it to be gone. */
    void sigkill() throws Exception {
        Process kill = new ProcessBuilder("kill", "-9", String.valueOf(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -9 " + process.pid() + " failed");
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " " + process.pid() + " did not die after SIGKILL");
        }
        reader.join(5_000);
    }

    String describe() {
        return "lines " + lines + "; stderr:\n" + stderrText();
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
