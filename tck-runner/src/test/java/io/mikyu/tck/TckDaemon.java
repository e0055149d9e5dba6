package io.mikyu.tck;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Remote mode ({@code -Dtck.mode=remote}): the {@code mikyu daemon} the run starts itself, in a child JVM on the
 * test class path (which has mikyu-broker), serving {@code tck.data} on a free loopback port. Every connection
 * factory of {@code jndi.properties} is pointed at it by {@link RemoteTckContextFactory}. {@code tck.daemonArgs}
 * adds options to the daemon's command line (its users, once the broker authenticates). Stopped with SIGTERM when
 * the test JVM exits.
 */
final class TckDaemon {

    private static final String LISTENING = "mikyu daemon listening on ";
    private static volatile String uri;

    private TckDaemon() {
    }

    static boolean remoteMode() {
        return "remote".equals(System.getProperty("tck.mode"));
    }

    /** The daemon's {@code tcp://host:port}; started at the first call. */
    static synchronized String uri() {
        if (uri == null) {
            uri = start();
        }
        return uri;
    }

    private static String start() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String data = System.getProperty("tck.data", "target/tck-data");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-cp", classPath, "io.mikyu.cli.MikyuCli",
                "daemon", "--data-dir", data, "--target", "tcp://127.0.0.1:0"));
        String extra = System.getProperty("tck.daemonArgs", "").strip();
        if (!extra.isEmpty()) {
            command.addAll(Arrays.asList(extra.split("\\s+")));
        }
        Path log = Path.of(System.getProperty("tck.daemonLog", "tck-daemon.log"));
        try {
            Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(process), "tck-daemon-stop"));
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(LISTENING)) {
                    String address = line.substring(LISTENING.length()).split(" ")[0];
                    System.err.println("TCK: remote mode, mikyu daemon (pid " + process.pid() + ") at " + address
                            + ", data " + data + ", log " + log.toAbsolutePath());
                    drain(out);
                    return address;
                }
            }
            throw new IllegalStateException("the mikyu daemon exited before listening: " + command + "\n"
                    + Files.readString(log));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the mikyu daemon: " + command, e);
        }
    }

    private static void drain(BufferedReader out) {
        Thread t = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // nothing more is expected on stdout
                }
            } catch (IOException ignored) {
                // the daemon is gone
            }
        }, "tck-daemon-stdout");
        t.setDaemon(true);
        t.start();
    }

    /** SIGTERM: the daemon closes its store cleanly; killed if it takes too long. */
    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
        }
    }
}
