package io.mikyu.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@code mikyu daemon} in a child JVM for a test class: started before the class (and so before the extensions
 * registered after this one: Arquillian's deployment), stopped after it. It listens on 127.0.0.1 at
 * -Dit.daemon.port (the server's configuration names the same port) with its store in -Dit.daemon.data, and runs
 * on this JVM's test class path, which has the broker (mikyu-broker) and its dependencies.
 */
public final class Daemon implements BeforeAllCallback, AfterAllCallback {

    private static final String LISTENING = "mikyu daemon listening on ";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private Process process;
    private Path output;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        int port = Integer.getInteger("it.daemon.port", 0);
        if (port == 0) {
            throw new IllegalStateException("-Dit.daemon.port is not set: the build sets it");
        }
        Path data = Path.of(System.getProperty("it.daemon.data", "target/mikyu-data/daemon"));
        Files.createDirectories(data);
        output = data.resolveSibling("daemon-" + port + ".out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", classPath, "io.mikyu.cli.MikyuCli", "daemon",
                "--data-dir", data.toString(), "--target", "tcp://127.0.0.1:" + port));
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.readString(output).contains(LISTENING)) {
                return;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("mikyu daemon exited with " + process.exitValue() + ":\n"
                        + Files.readString(output));
            }
            Thread.sleep(50);
        }
        process.destroyForcibly();
        throw new IllegalStateException("mikyu daemon not listening after " + START_TIMEOUT + ":\n"
                + Files.readString(output));
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException, InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();   // SIGTERM: the daemon closes its store and exits
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
