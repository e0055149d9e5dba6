package io.mikyu.cli;

import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.Parser;
import org.jline.reader.SyntaxError;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.reader.impl.completer.SystemCompleter;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.shell.jline3.PicocliCommands;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code mikyu repl} (and {@code mikyu} alone): a shell that runs mikyu commands on one store kept open between
 * them. On a terminal it edits lines with JLine (history, completion of commands and options, Ctrl-C stops a
 * running {@code tail}); otherwise it reads commands line by line from standard input, so a script can be piped
 * in.
 */
@Command(name = "repl", mixinStandardHelpOptions = true,
        description = {"An interactive shell: runs mikyu commands on one store, opened once and kept open.",
            "Works on --target or --data-dir (the default data directory without either); 'open DIR' and"
                + " 'connect URI' switch. 'help' lists the commands, 'exit' or Ctrl-D leaves.",
            "When standard input is not a terminal, runs its lines as commands (# starts a comment) and exits"
                + " with the status of the last command that failed, 0 if none did."},
        footer = {"", "Examples:",
            "  mikyu repl --target tcp://127.0.0.1:7420",
            "  printf 'create events\\nappend events hello\\nread events 0\\n' | mikyu repl --data-dir ./data"})
final class ReplCommand implements Callable<Integer> {

    /** Commands that make no sense inside the shell. */
    private static final Set<String> NOT_IN_SHELL = Set.of("repl", "daemon");

    @Mixin
    DataDirOption dataDir;

    @Mixin
    TargetOption target;

    @Spec
    CommandSpec spec;

    // Tests substitute standard input here; a substitute is never a terminal.
    InputStream input = System.in;

    @Override
    public Integer call() throws Exception {
        boolean dataDirGiven = spec.commandLine().getParseResult() != null
                && spec.commandLine().getParseResult().hasMatchedOption("--data-dir");
        if (target.target != null && dataDirGiven) {
            throw new ParameterException(spec.commandLine(), "--target and --data-dir are mutually exclusive");
        }
        String uri = target.uri(dataDirGiven);
        Path dir = uri != null ? null : dataDir.dataDir != null ? dataDir.dataDir : DataDirOption.DefaultLocation.path();
        try (Shell shell = new Shell(dir, uri)) {
            if (input == System.in && System.console() != null) {
                return interactive(shell);
            }
            return script(shell, spec.commandLine().getOut(), spec.commandLine().getErr());
        }
    }

    /** The command line the shell runs its lines on: every mikyu command plus the shell's own. */
    private static CommandLine shellCommandLine(Shell shell, PrintWriter out, PrintWriter err) {
        CommandLine cli = MikyuCli.newCommandLine(shell);
        for (Object command : ShellCommands.all()) {
            cli.addSubcommand(command);
        }
        cli.setOut(out);
        cli.setErr(err);
        return cli;
    }

    private int script(Shell shell, PrintWriter out, PrintWriter err) throws IOException {
        CommandLine cli = shellCommandLine(shell, out, err);
        Parser parser = new DefaultParser().eofOnUnclosedQuote(true);
        int status = 0;
        BufferedReader lines = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
        String line;
        while (!shell.exitRequested() && (line = lines.readLine()) != null) {
            int exit = runLine(cli, parser, line, err);
            if (exit != 0) {
                status = exit;
            }
        }
        out.flush();
        return status;
    }

    private static int interactive(Shell shell) throws IOException {
        try (Terminal terminal = TerminalBuilder.builder().name("mikyu").system(true).build()) {
            PrintWriter out = terminal.writer();
            CommandLine cli = shellCommandLine(shell, out, out);
            SystemCompleter completer = new PicocliCommands(cli).compileCompleters();
            completer.compile();
            Parser parser = new DefaultParser().eofOnUnclosedQuote(true);
            LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("mikyu")
                    .completer(completer).parser(parser)
                    .variable(LineReader.HISTORY_FILE, historyFile())
                    .build();
            // While a command runs (the line reader has its own handler while reading), Ctrl-C stops it.
            terminal.handle(Terminal.Signal.INT, signal -> shell.interrupt());
            out.println("mikyu shell on " + (shell.remote() ? "daemon " : "data directory ") + shell.location()
                    + "; 'help' lists the commands, Tab completes, 'exit' or Ctrl-D leaves.");
            out.flush();
            while (!shell.exitRequested()) {
                String line;
                try {
                    line = reader.readLine("mikyu> ");
                } catch (UserInterruptException e) {
                    continue;
                } catch (EndOfFileException e) {
                    break;
                }
                runLine(cli, parser, line, out);
                out.flush();
            }
            return 0;
        }
    }

    /** Runs one line; returns its exit code (0 for an empty line or a comment). */
    private static int runLine(CommandLine cli, Parser parser, String line, PrintWriter err) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
            return 0;
        }
        List<String> words;
        try {
            words = parser.parse(trimmed, trimmed.length(), Parser.ParseContext.ACCEPT_LINE).words();
        } catch (SyntaxError e) {
            MikyuCli.printError(err, "cannot read the line: " + e.getMessage());
            return CommandLine.ExitCode.USAGE;
        }
        if (words.isEmpty()) {
            return 0;
        }
        if (NOT_IN_SHELL.contains(words.get(0))) {
            MikyuCli.printError(err, "'" + words.get(0) + "' is not available in the shell; run it as 'mikyu "
                    + words.get(0) + "'");
            return CommandLine.ExitCode.USAGE;
        }
        return cli.execute(words.toArray(String[]::new));
    }

    private static String historyFile() {
        return Path.of(System.getProperty("user.home"), ".mikyu_history").toString();
    }
}
