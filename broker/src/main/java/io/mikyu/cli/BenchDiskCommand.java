package io.mikyu.cli;

import io.mikyu.cli.bench.DiskBench;
import io.mikyu.cli.units.Units;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "disk", mixinStandardHelpOptions = true,
        description = {"Measures the disk a data directory is on.",
            "Sequential write bandwidth (like dd bs=1M count=2048 conv=fdatasync) and the p50 latency of a 4 KiB"
                + " write + fdatasync, over a preallocated file and appending to a growing one. Deletes its files"
                + " afterwards."},
        footer = {"", "Example: mikyu bench disk --dir /var/lib/mikyu --size 4GiB"})
final class BenchDiskCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".",
            description = "Directory on the disk to measure (default: the current directory).")
    Path dir;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "2GiB", converter = Units.ByteSizeConverter.class,
            description = "Bytes for the sequential write (default: ${DEFAULT-VALUE}).")
    long size;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "2000",
            description = "4 KiB write + fdatasync rounds per file (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(dir)) {
            throw new CommandException("no directory " + dir);
        }
        DiskBench bench;
        try {
            bench = new DiskBench(dir, size, iterations);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        long free = Files.getFileStore(dir).getUsableSpace();
        if (free < bench.bytesNeeded()) {
            throw new CommandException("not enough free space in " + dir + ": the bench writes "
                    + Units.formatBytes(bench.bytesNeeded()) + ", " + Units.formatBytes(free) + " is free (try --size)");
        }
        PrintWriter err = spec.commandLine().getErr();
        err.println("bench: writing " + Units.formatBytes(size) + " then 2 x " + iterations + " fdatasyncs in "
                + dir.toAbsolutePath());
        err.flush();
        DiskBench.Result result = bench.run();
        PrintWriter out = spec.commandLine().getOut();
        out.println(result.summary());
        out.println("BENCH_DISK_RESULT " + result.toJson().put("dir", dir.toAbsolutePath().toString()));
        out.flush();
        return 0;
    }
}
