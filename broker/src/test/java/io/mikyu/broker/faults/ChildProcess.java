package io.mikyu.broker.faults;

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
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A JVM the fault scenarios start with the test class path and then signal: SIGKILL, SIGSTOP, SIGCONT go to this one
 * process by its pid. Its stdout is read line by line (each complete line also handed to an optional listener);
 * stderr goes to a file shown when something fails. {@link #close()} kills it if it still runs.
 */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path stderr;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Consumer<String> listener;
    private final Thread reader;

    private ChildProcess(String name, Process process, Path stderr, Consumer<String> listener) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.listener = listener;
        this.reader = new Thread(this::readLines, name + "-stdout-" + process.pid());
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** {@code java <jvmOptions> -cp <test class path> mainClass args}. */
    static ChildProcess startJava(Path workDir, String name, List<String> jvmOptions, String mainClass,
                                  List<String> args, Consumer<String> listener) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx192m", "-XX:+UseSerialGC", "-Xshare:auto",
                "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(args);
        Files.createDirectories(workDir);
        Path err = Files.createTempFile(workDir, name + "-", ".stderr");
        Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
        return new ChildProcess(name, process, err, listener);
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                if (listener != null) {
                    listener.accept(line);
                }
            }
        } catch (IOException ignored) {
            // the pipe closes when the process dies
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String name() {
        return name;
    }

    /** The first line starting with {@code prefix}, waiting up to {@code timeout}; fails with the output otherwise. */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        try {
            Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(10))
                    .until(() -> line(prefix) != null || !process.isAlive());
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(name + " did not print '" + prefix + "' within " + timeout + "; " + describe());
        }
        String line = line(prefix);
        if (line != null) {
            return line;
        }
        reader.join(2_000);
        line = line(prefix);
        if (line != null) {
            return line;
        }
        throw new AssertionError(name + " exited with " + process.exitValue() + " before printing '" + prefix + "'; "
                + describe());
    }

    private String line(String prefix) {
        for (String line : lines) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return null;
    }

    /** SIGKILL (unless it ended already), then waits until the process is gone and its output read. */
    void kill() throws Exception {
        try {
            signal("KILL");
        } catch (AssertionError e) {
            if (process.isAlive()) {
                throw e;
            }
            // it ended by itself just before
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " " + process.pid() + " did not die after SIGKILL");
        }
        reader.join(10_000);
    }

    /** Waits up to {@code timeout} for the process to end by itself; true if it did. */
    boolean awaitExit(Duration timeout) throws InterruptedException {
        boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (exited) {
            reader.join(10_000);
        }
        return exited;
    }

    int exitValue() {
        return process.exitValue();
    }

    /** {@code kill -<signal> <pid>}: this one process. */
    void signal(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    String describe() {
        List<String> out = lines.size() > 40 ? lines.subList(lines.size() - 40, lines.size()) : lines;
        return name + " (pid " + process.pid() + ") stdout " + out + "; stderr:\n" + stderrText();
    }

    String stderrText() {
        try {
            String text = Files.readString(stderr);
            return text.length() > 10_000 ? "..." + text.substring(text.length() - 10_000) : text;
        } catch (IOException e) {
            return "(stderr unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
