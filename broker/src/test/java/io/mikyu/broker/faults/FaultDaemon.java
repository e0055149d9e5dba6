package io.mikyu.broker.faults;

import io.mikyu.cli.MikyuCli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code mikyu daemon} in a child JVM on a fixed loopback port and data directory: killed with SIGKILL and started
 * again on the same port and directory (clients reconnect to the address they know), or stopped with SIGSTOP and
 * resumed with SIGCONT.
 */
final class FaultDaemon implements AutoCloseable {

    private static final String LISTENING = "mikyu daemon listening on ";
    /** Generous: a JVM start on two busy cores, and the recovery of the data directory. */
    private static final Duration START = Duration.ofSeconds(120);

    private final Path workDir;
    private final Path dataDir;
    private final int port;
    private final List<String> extraArgs;
    private ChildProcess process;
    private int starts;

    private FaultDaemon(Path workDir, int port, List<String> extraArgs) {
        this.workDir = workDir;
        this.dataDir = workDir.resolve("data");
        this.port = port;
        this.extraArgs = extraArgs;
    }

    /** A daemon on {@code 127.0.0.1:port} serving {@code workDir/data}, started and listening. */
    static FaultDaemon start(Path workDir, int port, String... extraArgs) throws Exception {
        FaultDaemon daemon = new FaultDaemon(workDir, port, List.of(extraArgs));
        daemon.startProcess();
        return daemon;
    }

    private void startProcess() throws Exception {
        List<String> args = new ArrayList<>(List.of("daemon", "--data-dir", dataDir.toString(), "--target",
                "tcp://127.0.0.1:" + port));
        args.addAll(extraArgs);
        starts++;
        process = ChildProcess.startJava(workDir, "daemon-" + starts, List.of(), MikyuCli.class.getName(), args,
                null);
        try {
            process.awaitLine(LISTENING, START);
        } catch (AssertionError | InterruptedException e) {
            process.close();
            throw e;
        }
    }

    /** {@code tcp://127.0.0.1:<port>}, without options. */
    String url() {
        return "tcp://127.0.0.1:" + port;
    }

    /** SIGKILL, then a new daemon on the same port and data directory, waiting until it listens. */
    void killAndRestart() throws Exception {
        process.kill();
        startProcess();
    }

    void sigstop() throws Exception {
        process.signal("STOP");
    }

    void sigcont() throws Exception {
        process.signal("CONT");
    }

    /** How many daemons were started on this directory. */
    int starts() {
        return starts;
    }

    String describe() {
        return process.describe();
    }

    @Override
    public void close() {
        if (process != null) {
            try {
                process.signal("CONT");     // a stopped process cannot act on anything else
            } catch (Exception | AssertionError ignored) {
                // already gone
            }
            process.close();
        }
    }
}
