package io.mikyu.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures the engine (run), the disk under it (disk), reopen time (reopen) and many destinations"
                + " (destinations).",
        subcommands = {BenchRunCommand.class, BenchDiskCommand.class, BenchReopenCommand.class,
            BenchDestinationsCommand.class},
        footer = {"", "Each prints a report, then one last line for scripts: BENCH_RESULT {json}"
                + " (BENCH_DISK_RESULT, BENCH_REOPEN_RESULT, BENCH_DESTINATIONS_RESULT)."})
final class BenchCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
