package io.mikyu.engine.task;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** A child JVM running {@link CrashingTaskWorker}, whose complete stdout lines are collected as they arrive. */
final class TaskChildJvm implements AutoCloseable {

    private final Process process;
    private final Path stderr;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private TaskChildJvm(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.reader = new Thread(this::readLines, "child-stdout-" + process.pid());
        this.reader.setDaemon(true);
        this.reader.start();
    }

    static TaskChildJvm start(Path workDir, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-Xshare:auto",
                "-cp", classPath, CrashingTaskWorker.class.getName()));
        command.addAll(List.of(args));
        Path err = Files.createTempFile(workDir, "child-", ".stderr");
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(err.toFile());
        return new TaskChildJvm(pb.start(), err);
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.US_ASCII))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.endsWith(" $")) { // a line cut by the kill has no terminator
                    lines.add(line.substring(0, line.length() - 2));
                }
            }
        } catch (IOException ignored) {
            // the pipe closes when the child dies
        }
    }

    long pid() {
        return process.pid();
    }

    List<String> lines() {
        return lines;
    }

    long count(String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).count();
    }

    /** Waits until {@code n} lines match, failing with the child's stderr if it dies or time runs out. */
    void awaitLines(Predicate<String> match, long n, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lines.stream().filter(match).count() < n) {
            if (!process.isAlive()) {
                throw new AssertionError("child exited with " + process.exitValue() + " after "
                        + lines.size() + " lines; stderr:\n" + stderrText());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("child printed only " + lines.stream().filter(match).count() + " of " + n
                        + " expected lines in " + timeout + "; stderr:\n" + stderrText());
            }
            Thread.sleep(5);
        }
    }

    /** Sends SIGKILL ({@code kill -9}), waits for the child to die and for its output to be drained. */
    void sigkill() throws Exception {
        Process kill = new ProcessBuilder("kill", "-9", String.valueOf(process.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -9 exit status").isZero();
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("child died after SIGKILL").isTrue();
        assertThat(process.exitValue()).as("exit status of a process killed by SIGKILL (128 + 9)").isEqualTo(137);
        assertThat(ProcessHandle.of(process.pid()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        reader.join(10_000);
    }

    int waitForExit(Duration timeout) throws Exception {
        assertThat(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)).as("child exited").isTrue();
        reader.join(10_000);
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
