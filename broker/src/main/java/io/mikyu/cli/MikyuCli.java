package io.mikyu.cli;

import io.mikyu.engine.MikyuException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;

/**
 * The {@code mikyu} command line.
 *
 * <p>Every failure ends as one line on stderr, {@code mikyu: error: ...}, and a non-zero exit: 2 for usage
 * mistakes, 1 for failures at run time. {@code --verbose} adds the stack trace.
 */
@Command(name = "mikyu",
        mixinStandardHelpOptions = true,
        versionProvider = MikyuCli.Version.class,
        description = {"Creates, writes, reads and measures mikyu queues in a local data directory (--data-dir) or"
                + " on a running daemon (--target).",
            "Log queues: append, read, tail, groups, commit, compact. Task queues: enqueue, dequeue, ack, nack,"
                + " extend, peek, browse, dlq. In-doubt XA transactions: xa. Serve the store to remote clients:"
                + " daemon. Settings: config, passwd.",
            "Without a command (or with repl): a shell that keeps one store open."},
        subcommands = {
            CreateCommand.class, AppendCommand.class, ReadCommand.class, TailCommand.class,
            GroupsCommand.class, CommitCommand.class,
            EnqueueCommand.class, DequeueCommand.class, AckCommand.class, NackCommand.class, ExtendCommand.class,
            PeekCommand.class, BrowseCommand.class, DlqCommand.class, XaCommand.class,
            ListCommand.class, DeleteCommand.class, StatsCommand.class, CompactCommand.class, BenchCommand.class,
            DaemonCommand.class, ReplCommand.class, ConfigCommand.class, PasswdCommand.class,
            CommandLine.HelpCommand.class
        },
        footer = {"", "Run 'mikyu COMMAND --help' for a command's options."})
public final class MikyuCli implements Callable<Integer> {

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "On failure, print the stack trace as well as the error.")
    boolean verbose;

    @Spec
    CommandSpec spec;

    /** The shell this command line runs in ({@code mikyu repl}), or {@code null} for one command. */
    final Shell shell;

    private MikyuCli(Shell shell) {
        this.shell = shell;
    }

    public static void main(String[] args) {
        CommandLine cli = newCommandLine();
        // Straight to the file descriptor rather than through System.out: a PrintStream hides write errors, and
        // `mikyu tail q | head` must notice that head has exited. UTF-8, as payloads are decoded on input.
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
                new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8), 1 << 16));
        cli.setOut(out);
        cli.setErr(new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err),
                StandardCharsets.UTF_8), true));
        int exitCode = cli.execute(args);
        out.flush();
        System.exit(exitCode);
    }

    /** The configured command line; tests run commands through it in-process. */
    public static CommandLine newCommandLine() {
        return newCommandLine(null);
    }

    /** A command line whose store commands work on the store {@code shell} keeps open. */
    static CommandLine newCommandLine(Shell shell) {
        CommandLine cli = new CommandLine(new MikyuCli(shell));
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler(new RuntimeErrors());
        cli.setParameterExceptionHandler(new UsageErrors());
        cli.setDefaultValueProvider(new DataDirOption.DefaultLocation());
        return cli;
    }

    @Override
    public Integer call() throws Exception {
        if (shell != null) {
            // Options without a command, in the shell: show what there is to do.
            spec.commandLine().usage(spec.commandLine().getOut());
            return 0;
        }
        // `mikyu` alone: the shell, on the default store (or $MIKYU_TARGET).
        ReplCommand repl = spec.commandLine().getSubcommands().get("repl").getCommand();
        return repl.call();
    }

    static void printError(PrintWriter err, String message) {
        // One line, whatever the message: scripts grep it and people read it.
        err.println("mikyu: error: " + message.replaceAll("\\s*\\R\\s*", "; "));
        err.flush();
    }

    private static boolean verbose(ParseResult result) {
        for (ParseResult r = result; r != null; r = r.subcommand()) {
            if (r.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }

    /** Failures while a command runs: exit 1 with the exception's message. */
    static final class RuntimeErrors implements IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
            PrintWriter err = cmd.getErr();
            printError(err, describe(ex));
            if (verbose(parseResult)) {
                ex.printStackTrace(err);
                err.flush();
            }
            return CommandLine.ExitCode.SOFTWARE;
        }

        private static String describe(Throwable ex) {
            if ((ex instanceof UncheckedIOException || ex instanceof ExecutionException) && ex.getCause() != null) {
                return describe(ex.getCause());
            }
            if (ex.getMessage() == null) {
                return ex.getClass().getSimpleName();
            }
            // Our own exceptions and argument checks are written for users. Anything else is named by type,
            // because its message alone ("/tmp/x", "Broken pipe") rarely says what went wrong.
            if (ex instanceof MikyuException || ex instanceof CommandException || ex instanceof IllegalArgumentException
                    || ex instanceof CancellationException) {
                return ex.getMessage();
            }
            return ex.getClass().getSimpleName() + ": " + ex.getMessage();
        }
    }

    /** Mistakes on the command line: exit 2, pointing at the help of the command that was being parsed. */
    static final class UsageErrors implements IParameterExceptionHandler {
        @Override
        public int handleParseException(ParameterException ex, String[] args) {
            CommandLine cmd = ex.getCommandLine();
            printError(cmd.getErr(), ex.getMessage() + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
            return CommandLine.ExitCode.USAGE;
        }
    }

    /** The version in the jar manifest, which Maven writes; a build run from classes has none. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = MikyuCli.class.getPackage().getImplementationVersion();
            return new String[] {
                "mikyu " + (version == null ? "(development build)" : version),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"
            };
        }
    }
}
