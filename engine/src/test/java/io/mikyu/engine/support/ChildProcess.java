package io.mikyu.engine.support;

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;

/**
 * A child JVM running any test-side {@code main} class with the test class path, for crash tests. The child prints
 * lines ending in {@code " $"} (use {@link #println(String)}); the parent collects the complete ones as they
 * arrive, so a line cut by a kill is ignored.
 */
public final class ChildProcess implements AutoCloseable {

    private static final PrintStream OUT = new PrintStream(System.out, false, StandardCharsets.US_ASCII);

    private final Process process;
    private final Path stderr;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private ChildProcess(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.reader = new Thread(this::readLines, "child-stdout-" + process.pid());
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** Starts {@code mainClass} with {@code systemProperties} ({@code -Dk=v}) and {@code args}. */
    public static ChildProcess start(Path workDir, Class<?> mainClass, Map<String, String> systemProperties,
                                     String... args) throws IOException {
        return start(workDir, mainClass, "256m", systemProperties, args);
    }

    /** As {@link #start(Path, Class, Map, String...)} with a heap of {@code maxHeap} ({@code -Xmx}). */
    public static ChildProcess start(Path workDir, Class<?> mainClass, String maxHeap,
                                     Map<String, String> systemProperties, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx" + maxHeap, "-XX:+UseSerialGC", "-Xshare:auto",
                "-XX:TieredStopAtLevel=1"));
        systemProperties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("-cp", classPath, mainClass.getName()));
        command.addAll(List.of(args));
        Path err = Files.createTempFile(workDir, "child-", ".stderr");
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(err.toFile());
        return new ChildProcess(pb.start(), err);
    }

    /** For the child: prints one complete line the parent will see. */
    public static void println(String line) {
        synchronized (OUT) {
            OUT.print(line + " $\n");
            OUT.flush();
        }
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.US_ASCII))) {
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

    public long pid() {
        return process.pid();
    }

    public List<String> lines() {
        return lines;
    }

    public List<String> lines(String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).toList();
    }

    /** Waits until {@code n} lines match, failing with the child's stderr if it dies or time runs out. */
    public void awaitLines(Predicate<String> match, long n, Duration timeout) throws InterruptedException {
        try {
            await().atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2))
                    .until(() -> count(match) >= n || !process.isAlive());
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("child printed only " + count(match) + " of " + n + " expected lines in "
                    + timeout + ": " + lines + "; stderr:\n" + stderrText());
        }
        if (count(match) < n) {
            reader.join(2_000); // the child exited: its last lines may still be in the pipe
            if (count(match) < n) {
                throw new AssertionError("child exited with " + process.exitValue() + " after "
                        + lines.size() + " lines " + lines + "; stderr:\n" + stderrText());
            }
        }
    }

    private long count(Predicate<String> match) {
        return lines.stream().filter(match).count();
    }

    /** For the child: blocks until the parent kills this process, which is how a crash test's child ends. */
    public static void awaitKill() throws InterruptedException {
        new CountDownLatch(1).await();
    }

    public void awaitLine(String prefix, Duration timeout) throws InterruptedException {
        awaitLines(l -> l.startsWith(prefix), 1, timeout);
    }

    /** Sends SIGKILL to the child (only this process, by its pid) and waits for it to die. */
    public void sigkill() throws Exception {
        Process kill = new ProcessBuilder("kill", "-9", String.valueOf(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -9 " + process.pid() + " failed");
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new AssertionError("child " + process.pid() + " did not die after SIGKILL");
        }
        reader.join(10_000);
    }

    /** Waits for the child to exit on its own; returns its exit status. */
    public int waitForExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("child did not exit within " + timeout + "; lines " + lines + "; stderr:\n"
                    + stderrText());
        }
        reader.join(10_000);
        return process.exitValue();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String stderrText() {
        try {
            return Files.readString(stderr);
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
