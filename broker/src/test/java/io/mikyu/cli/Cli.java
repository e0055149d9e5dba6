package io.mikyu.cli;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import picocli.CommandLine;

/** Runs {@code mikyu} commands in-process against one data directory, capturing what they print. */
final class Cli {

    record Run(int exitCode, String out, String err) {
        List<String> outLines() {
            return out.isEmpty() ? List.of() : Arrays.asList(out.split("\\R"));
        }

        List<String> errLines() {
            return err.isEmpty() ? List.of() : Arrays.asList(err.split("\\R"));
        }
    }

    private final Path dataDir;

    Cli(Path dataDir) {
        this.dataDir = dataDir;
    }

    /** Runs the command with {@code --data-dir} added for the commands that take it. */
    Run run(String... args) {
        return runWithStdin(null, args);
    }

    Run runWithStdin(String stdin, String... args) {
        List<String> all = new ArrayList<>(Arrays.asList(args));
        if (!args[0].equals("bench")) {
            all.add("--data-dir");
            all.add(dataDir.toString());
        }
        return runExactly(stdin, all.toArray(String[]::new));
    }

    /** Runs the command with exactly these arguments. */
    static Run runExactly(String stdin, String... args) {
        CommandLine cli = MikyuCli.newCommandLine();
        if (stdin != null) {
            AppendCommand append = cli.getSubcommands().get("append").getCommand();
            append.input = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
            EnqueueCommand enqueue = cli.getSubcommands().get("enqueue").getCommand();
            enqueue.input = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exitCode = cli.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }
}
