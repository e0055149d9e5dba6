package io.mikyu.it;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;

/**
 * A WildFly that a test starts, kills and restarts itself (Arquillian's container is for servers that end
 * gracefully): the unpacked distribution (-Dit.server.home) with a server directory of its own, so that it runs
 * beside the server Arquillian manages. Its configuration is that server's {@code standalone-full.xml} as
 * configure.cli left it; every port is moved by its own offset; its applications are files in its
 * {@code deployments/}, deployed by the deployment scanner at every start. {@link #kill()} ends exactly its JVM
 * with SIGKILL.
 */
final class WildFlyProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(Long.getLong("it.server.start.seconds", 240));
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Path home;
    private final Path base;
    private final int portOffset;
    private final List<String> properties;
    private Process script;
    private volatile ProcessHandle jvm;

    /**
     * @param base the server directory, made afresh from the distribution's configuration
     * @param properties system properties of the server, {@code -Dname=value}
     */
    WildFlyProcess(Path base, int portOffset, List<String> properties) throws IOException {
        this.home = Path.of(System.getProperty("it.server.home"));
        this.base = base;
        this.portOffset = portOffset;
        this.properties = List.copyOf(properties);
        copyConfiguration();
        Files.createDirectories(base.resolve("deployments"));
    }

    /** Deployed at the next start (and every start after it). */
    void deploy(Archive<?> archive) {
        archive.as(ZipExporter.class).exportTo(base.resolve("deployments").resolve(archive.getName()).toFile(), true);
    }

    /** Starts the server and waits until every file in {@code deployments/} is deployed. */
    void start() throws IOException, InterruptedException {
        Path pidFile = base.resolve("server.pid");
        Files.deleteIfExists(pidFile);
        clearDeploymentMarkers();
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/standalone.sh").toString(),
                "-c", "standalone-full.xml", "-Djboss.server.base.dir=" + base,
                "-Djboss.socket.binding.port-offset=" + portOffset));
        command.addAll(properties);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(base.resolve("console.out").toFile()));
        Map<String, String> env = builder.environment();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("JBOSS_HOME", home.toString());
        env.put("JBOSS_PIDFILE", pidFile.toString());
        env.put("LAUNCH_JBOSS_IN_BACKGROUND", "true");
        // as arquillian.xml's, for the same machine
        env.put("JAVA_OPTS", "-Xms64m -Xmx768m -XX:MetaspaceSize=96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
                + " -Djava.net.preferIPv4Stack=true -Djava.awt.headless=true -Djboss.modules.system.pkgs=org.jboss.byteman"
                + " -Djboss.bind.address=127.0.0.1 -Djboss.bind.address.management=127.0.0.1"
                + " -Djboss.bind.address.unsecure=127.0.0.1");
        script = builder.start();
        jvm = null;
        try {
            await("WildFly's deployments deployed").atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(200))
                    .until(() -> startedOrFailIfExited(pidFile));
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("WildFly's deployments not deployed in " + START_TIMEOUT + "; "
                    + logTail());
        }
    }

    /** Whether the server's JVM is known (from its pid file) and its deployments deployed; fails if it exited. */
    private boolean startedOrFailIfExited(Path pidFile) throws IOException {
        if (jvm == null && Files.exists(pidFile)) {
            String pid = Files.readString(pidFile).trim();
            if (!pid.isEmpty()) {
                jvm = ProcessHandle.of(Long.parseLong(pid)).orElse(null);
            }
        }
        if (!script.isAlive()) {
            throw new IllegalStateException("WildFly exited with " + script.exitValue() + "; " + logTail());
        }
        return jvm != null && deployed();
    }

    /** kill -9 of the server's JVM, exactly: no shutdown of any kind. */
    void kill() throws InterruptedException {
        jvm.destroyForcibly();
        awaitExit();
    }

    /**
     * A graceful stop (SIGTERM: the server shuts down its deployments and subsystems). A server that started but
     * has not written its pid yet is stopped through its start script, which passes the signal on.
     */
    void stop() throws InterruptedException {
        if (jvm != null && jvm.isAlive()) {
            jvm.destroy();
            awaitExit();
        } else if (script != null && script.isAlive()) {
            script.destroy();
            if (!script.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("WildFly's start script (pid " + script.pid() + ") did not exit in "
                        + STOP_TIMEOUT);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /**
     * Runs one recovery pass now and waits for its end, through the transaction manager's recovery listener
     * (enabled by configure.cli).
     */
    void recoveryScan() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", 4712 + portOffset)) {
            socket.setSoTimeout((int) Duration.ofSeconds(120).toMillis());
            PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out.println("SCAN");
            String answer = in.readLine();
            if (!"DONE".equals(answer)) {
                throw new IOException("recovery scan answered " + answer);
            }
        }
    }

    int httpPort() {
        return 8080 + portOffset;
    }

    Path base() {
        return base;
    }

    /** The server's transaction log: the transactions it has decided and not finished (their Uids). */
    List<String> loggedTransactions() throws IOException {
        Path store = base.resolve("data/tx-object-store/ShadowNoFileLockStore/defaultStore/StateManager/BasicAction"
                + "/TwoPhaseCoordinator/AtomicAction");
        if (!Files.isDirectory(store)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(store)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }

    private void awaitExit() throws InterruptedException {
        try {
            jvm.onExit().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            script.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("WildFly (pid " + jvm.pid() + ") did not exit in " + STOP_TIMEOUT, e);
        }
    }

    /** A start deploys what is in {@code deployments/} afresh: the last start's markers would say it is done. */
    private void clearDeploymentMarkers() throws IOException {
        try (Stream<Path> files = Files.list(base.resolve("deployments"))) {
            for (Path f : files.filter(f -> f.getFileName().toString()
                    .matches(".*\\.(deployed|failed|isdeploying|pending|undeployed)")).toList()) {
                Files.delete(f);
            }
        }
    }

    private boolean deployed() throws IOException {
        Path deployments = base.resolve("deployments");
        try (Stream<Path> files = Files.list(deployments)) {
            List<Path> archives = files.filter(f -> f.getFileName().toString().matches(".*\\.(war|rar|jar|ear)")).toList();
            for (Path archive : archives) {
                if (Files.exists(archive.resolveSibling(archive.getFileName() + ".failed"))) {
                    throw new IllegalStateException(archive.getFileName() + " failed to deploy: "
                            + Files.readString(archive.resolveSibling(archive.getFileName() + ".failed")));
                }
                if (!Files.exists(archive.resolveSibling(archive.getFileName() + ".deployed"))) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The configured server's configuration directory, without deployments: Arquillian's deployments, if any were
     * deployed to that server at this moment, are written into its standalone-full.xml, and their content is not
     * copied.
     */
    private void copyConfiguration() throws IOException {
        Path from = home.resolve("standalone/configuration");
        Path to = base.resolve("configuration");
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Path config = to.resolve("standalone-full.xml");
        Files.writeString(config, Files.readString(config).replaceAll("(?s)\\s*<deployments>.*?</deployments>", ""));
    }

    private String logTail() throws IOException {
        Path log = base.resolve("log/server.log");
        if (!Files.exists(log)) {
            return "no server log; console: " + tail(base.resolve("console.out"));
        }
        return "server log " + log + ":\n" + tail(log);
    }

    private static String tail(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "(none)";
        }
        List<String> lines = Files.readAllLines(file);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
