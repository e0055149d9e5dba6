package io.mikyu.it;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A {@code mikyu daemon} in a child JVM for a test class: started before the class (and so before the extensions
 * registered after this one: Arquillian's deployment), stopped after it. It listens on 127.0.0.1 at
 * -Dit.daemon.port (the server's configuration names the same port) with its store in -Dit.daemon.data, and runs
 * on this JVM's test class path, which has the broker (mikyu-broker) and its dependencies.
 *
 * <p>A test method that takes a {@code Daemon} parameter gets this one, to {@link #kill()} it and {@link #start()}
 * it again on the same directory and port.
 */
public final class Daemon implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final String LISTENING = "mikyu daemon listening on ";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private Process process;
    private int starts;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    /** Starts the daemon and returns once it listens; each start writes its output to a file of its own. */
    public void start() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the mikyu daemon already runs (pid " + process.pid() + ")");
        }
        int port = Integer.getInteger("it.daemon.port", 0);
        if (port == 0) {
            throw new IllegalStateException("-Dit.daemon.port is not set: the build sets it");
        }
        Path data = Path.of(System.getProperty("it.daemon.data", "target/mikyu-data/daemon"));
        Files.createDirectories(data);
        starts++;
        Path output = data.resolveSibling("daemon-" + port + (starts == 1 ? "" : "-" + starts) + ".out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", classPath, "io.mikyu.cli.MikyuCli", "daemon",
                "--data-dir", data.toString(), "--target", "tcp://127.0.0.1:" + port));
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            await("the daemon listening").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(50))
                    .until(() -> listeningOrFailIfExited(output));
        } catch (ConditionTimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("mikyu daemon not listening after " + START_TIMEOUT + ":\n"
                    + Files.readString(output));
        }
    }

    /** Whether the daemon said it listens; fails if it exited. */
    private boolean listeningOrFailIfExited(Path output) throws IOException {
        if (Files.readString(output).contains(LISTENING)) {
            return true;
        }
        if (!process.isAlive()) {
            throw new IllegalStateException("mikyu daemon exited with " + process.exitValue() + ":\n"
                    + Files.readString(output));
        }
        return false;
    }

    /** kill -9: the daemon gets no chance to close its store or its connections. Returns once it is gone. */
    public void kill() throws IOException, InterruptedException {
        long pid = process.pid();
        Process kill = new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -9 " + pid + " failed");
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the mikyu daemon (pid " + pid + ") outlived kill -9 for 30 s");
        }
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException, InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();   // SIGTERM: the daemon closes its store and exits
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Daemon.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return this;
    }
}
