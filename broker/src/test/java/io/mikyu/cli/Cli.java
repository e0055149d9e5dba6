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

    private final List<String> storeArgs;

    Cli(Path dataDir) {
        this(List.of("--data-dir", dataDir.toString()));
    }

    private Cli(List<String> storeArgs) {
        this.storeArgs = storeArgs;
    }

    /** Runs commands with {@code --target uri}: on the store a daemon serves. */
    static Cli target(String uri) {
        return new Cli(List.of("--target", uri));
    }

    /** Runs the command with {@code --data-dir} (or {@code --target}) added for the commands that take it. */
    Run run(String... args) {
        return runWithStdin(null, args);
    }

    Run runWithStdin(String stdin, String... args) {
        List<String> all = new ArrayList<>(Arrays.asList(args));
        if (!args[0].equals("bench")) {
            all.addAll(storeArgs);
        }
        return runExactly(stdin, all.toArray(String[]::new));
    }

    /** Runs {@code mikyu repl} on this store with {@code script} as its standard input. */
    Run shell(String script) {
        List<String> args = new ArrayList<>(List.of("repl"));
        args.addAll(storeArgs);
        return shellExactly(script, args.toArray(String[]::new));
    }

    /** Runs {@code mikyu} with exactly these arguments (a shell: repl, or none) and {@code script} as its input. */
    static Run shellExactly(String script, String... args) {
        CommandLine cli = MikyuCli.newCommandLine();
        ReplCommand repl = cli.getSubcommands().get("repl").getCommand();
        repl.input = new ByteArrayInputStream(script.getBytes(StandardCharsets.UTF_8));
        return execute(cli, args);
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
        return execute(cli, args);
    }

    private static Run execute(CommandLine cli, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exitCode = cli.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }
}
