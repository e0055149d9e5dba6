package io.mikyu.cli;

import io.mikyu.cli.bench.Bench;
import io.mikyu.cli.bench.BenchResult;
import io.mikyu.cli.bench.BenchSettings;
import io.mikyu.cli.bench.JsonObject;
import io.mikyu.cli.units.Units;
import io.mikyu.engine.Durability;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Benchmarks the embedded engine, or a daemon over the network (--access remote --target URI).",
            "Log queues (--kind log): producer threads append to queues bench-0.. while a tailing consumer per queue"
                + " reads every record back with long polls and checks each arrives once, in order.",
            "Task queues (--kind task): producer threads enqueue to task queues bench-0.. while consumers per queue"
                + " dequeue up to --batch tasks under a lease and ack them in one call; every task must be acked"
                + " exactly once.",
            "Reports produce and consume throughput (MB = 10^6 bytes; for tasks, consume counts acked tasks),"
                + " write-call latency percentiles, group-commit batching and the ring-cache hit rate. Exit code 2"
                + " if a message was lost, duplicated or reordered."},
        footer = {"", "Examples:",
            "  mikyu bench run --durability sync --bytes 4GiB",
            "  mikyu bench run --kind task --workers 8 --batch 64",
            "  mikyu bench run --kind task --backlog --workers 4 --consumers 4 --bytes 10GiB",
            "  mikyu bench run --access remote --target tcp://127.0.0.1:7420"})
final class BenchRunCommand implements Callable<Integer> {

    enum Access { EMBEDDED, REMOTE }

    /** How long a remote backlog run waits for its daemon to be restarted between producing and draining. */
    private static final Duration RESTART_WAIT = Duration.ofMinutes(10);

    @Spec
    CommandSpec spec;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "8", description = "Producer threads (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--access", paramLabel = "embedded|remote",
            description = "How to reach the engine: opened in this process, or a daemon dialled at --target"
                    + " (default: remote with --target, else embedded).")
    Access access;

    @Option(names = "--target", paramLabel = "URI",
            description = "The daemon to measure (--access remote): tcp://HOST:PORT or unix:///PATH. Its bench"
                    + " queues are kept, as with --data-dir.")
    String target;

    @Option(names = "--durability", paramLabel = "sync|async", defaultValue = "async",
            description = "Durability of every append (default: ${DEFAULT-VALUE}).")
    Durability durability;

    @Option(names = "--message-size", paramLabel = "SIZE", defaultValue = "1KiB", converter = Units.ByteSizeConverter.class,
            description = "Payload bytes per record (default: ${DEFAULT-VALUE}).")
    long messageSize;

    @Option(names = "--bytes", paramLabel = "SIZE", defaultValue = "1GiB", converter = Units.ByteSizeConverter.class,
            description = "Payload bytes to produce in total (default: ${DEFAULT-VALUE}).")
    long totalBytes;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "64",
            description = "Messages per appendBatch (enqueueBatch) call, 1 for append (enqueue); for tasks also the"
                    + " most a consumer dequeues and acks at once (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--queues", paramLabel = "N", defaultValue = "1",
            description = "Queues bench-0.., workers spread over them round-robin (default: ${DEFAULT-VALUE}).")
    int queues;

    @Option(names = "--kind", paramLabel = "log|task", defaultValue = "log",
            description = "Kind of queue (default: ${DEFAULT-VALUE}).")
    QueueKind kind;

    @Option(names = "--consumers", paramLabel = "N",
            description = "Consumers per queue; 0 for produce only. Log: tailing consumers that each read every"
                    + " record (default: 1). Task: consumers that share the tasks (default: half of --workers,"
                    + " rounded up).")
    Integer consumers;

    @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "0s", converter = Units.DurationConverter.class,
            description = "Run the workload (producers and consumers) on throw-away queues this long first, so the"
                    + " JIT has settled, such as 10s (default: none).")
    Duration warmup;

    @Option(names = "--backlog",
            description = "Task queues: produce everything with no consumer running, close and reopen the store"
                    + " (timed), then drain it with the consumers (the consume rate is the drain's); reports the"
                    + " reopen time, the heap's high-water mark and the GC time as well. Remote: after producing,"
                    + " the bench waits (up to 10 minutes) for the daemon to be stopped and started again, then"
                    + " drains; the daemon's own heap, GC and open time are its to report (GC log, its"
                    + " 'listening' line); broker/bench/backlog-daemon.sh does all of it.")
    boolean backlog;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Store to benchmark in; its bench queues are kept for 'bench reopen' (task queues are"
                    + " emptied at the start of a run). Default: a new temporary directory, deleted afterwards.")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        Access how = access != null ? access : target != null ? Access.REMOTE : Access.EMBEDDED;
        if (how == Access.REMOTE && target == null) {
            throw new ParameterException(spec.commandLine(), "--access remote needs --target URI, the daemon to measure");
        }
        if (how == Access.EMBEDDED && target != null) {
            throw new ParameterException(spec.commandLine(), "--target is for --access remote");
        }
        if (how == Access.REMOTE && dataDir != null) {
            throw new ParameterException(spec.commandLine(), "--data-dir is for --access embedded; a remote bench"
                    + " writes to the daemon's store");
        }
        if (backlog && kind != QueueKind.TASK) {
            throw new ParameterException(spec.commandLine(), "--backlog is for --kind task");
        }
        if (messageSize > Integer.MAX_VALUE) {
            throw new CommandException("--message-size " + messageSize + " is larger than a record can be");
        }
        BenchSettings settings;
        try {
            settings = new BenchSettings(workers, durability, (int) messageSize, totalBytes, batch, queues,
                    consumers != null ? consumers : defaultConsumers(), warmup);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();

        Path dir = how == Access.REMOTE ? null : dataDir != null ? dataDir : Files.createTempDirectory("mikyu-bench-");
        AtomicReference<Bench<?, ?>> running = new AtomicReference<>();
        BenchResult result;
        // On Ctrl-C, stop the workers, close the store and delete the temporary directory before the JVM exits.
        try (GracefulStop stop = new GracefulStop(() -> stopBench(running.get()), Duration.ofSeconds(10))) {
            AtomicReference<Mikyu> reopened = new AtomicReference<>();
            // The engine's keys of the configuration file and -Dmikyu.<key> apply (e.g. -Dmikyu.taskWindow=0).
            io.mikyu.engine.EngineConfig engine = how == Access.REMOTE ? null
                    : io.mikyu.engine.config.MikyuConfig.load().engineConfig().build();
            try (Mikyu store = how == Access.REMOTE ? TargetOption.dial(target) : Mikyu.open(dir, engine)) {
                err.printf(Locale.ROOT, "bench: %,d %s of %d bytes (%s) from %d workers into %d %s queue(s), %s,"
                                + " batch %d, %d consumer(s) per queue, in %s%n", settings.messages(),
                        kind == QueueKind.TASK ? "tasks" : "records", messageSize, Units.formatBytes(totalBytes),
                        workers, queues, kind.directory(), durability.name().toLowerCase(Locale.ROOT), batch,
                        settings.consumersPerQueue(), how == Access.REMOTE ? "the daemon at " + target : dir);
                err.flush();
                Bench<?, ?> bench = Bench.of(kind, store, settings, err);
                if (backlog && how == Access.REMOTE) {
                    bench.backlogThenDrain(true, before -> {
                        before.close();
                        err.printf(Locale.ROOT, "bench: backlog produced; waiting for the daemon at %s to restart"
                                + " (stop it and start it again; its 'listening' line says how long its store took"
                                + " to open)%n", target);
                        err.flush();
                        try {
                            Mikyu again = DaemonRestart.await(target, RESTART_WAIT);
                            reopened.set(again);
                            return again;
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new java.util.concurrent.CancellationException("stopped waiting for the daemon");
                        }
                    });
                } else if (backlog) {
                    bench.backlogThenDrain(false, before -> {
                        before.close();
                        Mikyu again = Mikyu.open(dir, engine);
                        reopened.set(again);
                        return again;
                    });
                }
                running.set(bench);
                result = bench.run();
            } finally {
                if (reopened.get() != null) {
                    reopened.get().close();
                }
                if (dir != null && dataDir == null) {
                    deleteRecursively(dir, err);
                }
            }
        }
        result.print(out);
        JsonObject json = result.toJson()
                .put("access", how.name().toLowerCase(Locale.ROOT))
                .put("target", target)
                .put("kind", kind.directory())
                .put("data_dir", dataDir == null ? null : dataDir.toString());
        out.println("BENCH_RESULT " + json);
        out.flush();
        return result.verified() ? 0 : 2;
    }

    /** Log: one tailing consumer. Task: half as many consumers as producers, which must do more per task. */
    private int defaultConsumers() {
        return kind == QueueKind.TASK ? Math.max(1, (workers + 1) / 2) : 1;
    }

    private static void stopBench(Bench<?, ?> bench) {
        if (bench != null) {
            bench.stop();
        }
    }

    /** Best effort: a leftover temporary directory is worth a warning, not the loss of the result. */
    static void deleteRecursively(Path dir, PrintWriter err) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            err.println("mikyu: warning: could not delete " + dir + ": " + e);
            err.flush();
        }
    }
}
