package io.mikyu.cli;

import io.mikyu.cli.bench.JsonObject;
import io.mikyu.cli.units.Units;
import io.mikyu.engine.EngineStats;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.RecoveryReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(name = "reopen", mixinStandardHelpOptions = true,
        description = {"Times opening and closing an existing store.",
            "How long a restart takes before the first append, for a store such as one filled by"
                + " 'mikyu bench run --data-dir DIR'."},
        footer = {"", "Example:", "  mikyu bench run --data-dir /tmp/big --bytes 20GiB", "  mikyu bench reopen --data-dir /tmp/big"})
final class BenchReopenCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--data-dir", paramLabel = "DIR", required = true, description = "The store to open.")
    Path dataDir;

    @Override
    public Integer call() throws IOException {
        if (!Files.isDirectory(dataDir)) {
            throw new CommandException("no store at " + dataDir + " (the directory does not exist)");
        }
        loadEngineClasses();
        long openStart = System.nanoTime();
        Mikyu store = Mikyu.open(dataDir);
        double openMillis = (System.nanoTime() - openStart) / 1e6;
        EngineStats stats;
        RecoveryReport recovery;
        double closeMillis;
        double allOpenMillis;
        try {
            stats = store.stats(); // opens every queue the open left for first use
            allOpenMillis = (System.nanoTime() - openStart) / 1e6;
            recovery = store.recoveryReport();
        } finally {
            long closeStart = System.nanoTime();
            store.close();
            closeMillis = (System.nanoTime() - closeStart) / 1e6;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "open %.1f ms, every queue open %.1f ms, close %.1f ms, total %.1f ms  (%d log"
                        + " queues, %s on disk; recovery %d ms, %d events)%n",
                openMillis, allOpenMillis, closeMillis, allOpenMillis + closeMillis, stats.logQueues(), Units.formatBytes(stats.bytesOnDisk()),
                recovery.recoveryMillis(), recovery.events().size());
        recovery.events().forEach(e -> out.println("  " + e));
        out.println("BENCH_REOPEN_RESULT " + new JsonObject()
                .put("open_ms", openMillis)
                .put("all_open_ms", allOpenMillis)
                .put("close_ms", closeMillis)
                .put("total_ms", allOpenMillis + closeMillis)
                .put("bytes_on_disk", stats.bytesOnDisk())
                .put("log_queues", stats.logQueues())
                .put("recovery_events", recovery.events().size()));
        out.flush();
        return 0;
    }

    /**
     * Opens and closes an empty store first, so the timing is of this store and not of the JVM loading and
     * initializing the engine's classes (about 150 ms on a first open).
     */
    private static void loadEngineClasses() throws IOException {
        Path empty = Files.createTempDirectory("mikyu-reopen-");
        try {
            Mikyu.open(empty).close();
        } finally {
            BenchRunCommand.deleteRecursively(empty, new PrintWriter(Writer.nullWriter()));
        }
    }
}
