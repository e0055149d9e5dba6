package io.mikyu.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;

/** The commands only the shell has: which store it works on, and leaving it. */
final class ShellCommands {

    private ShellCommands() {
    }

    /** Adds them to the shell's command line. */
    static List<Object> all() {
        return List.of(new Open(), new Connect(), new Close(), new Status(), new Exit());
    }

    abstract static class ShellCommand implements Runnable {
        @Spec
        CommandSpec spec;

        Shell shell() {
            return Shell.of(spec);
        }

        void say(String line) {
            spec.commandLine().getOut().println(line);
            spec.commandLine().getOut().flush();
        }
    }

    @Command(name = "open", mixinStandardHelpOptions = true,
            description = "Works on the store in a data directory from now on (opened in this process and kept open).")
    static final class Open extends ShellCommand {
        @Parameters(paramLabel = "DIR")
        Path dir;

        @Override
        public void run() {
            shell().open(dir);
            say("opened " + dir);
        }
    }

    @Command(name = "connect", mixinStandardHelpOptions = true,
            description = "Works on the store of a running daemon from now on (one connection, kept open).")
    static final class Connect extends ShellCommand {
        @Parameters(paramLabel = "URI", description = "tcp://HOST:PORT or unix:///PATH")
        String uri;

        @Override
        public void run() {
            shell().connect(uri);
            say("connected to " + io.mikyu.engine.Secrets.redact(uri));
        }
    }

    @Command(name = "close", mixinStandardHelpOptions = true,
            description = "Closes the store (the data directory is free for other processes); the next command"
                    + " opens it again.")
    static final class Close extends ShellCommand {
        @Override
        public void run() {
            shell().closeStore();
            say("closed " + shell().location());
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Says which store the commands work on and whether it is open.")
    static final class Status extends ShellCommand {
        @Override
        public void run() {
            Shell shell = shell();
            say((shell.remote() ? "daemon " : "data directory ") + shell.location()
                    + (shell.isOpen() ? " (open)" : " (not open yet)"));
        }
    }

    @Command(name = "exit", aliases = "quit", mixinStandardHelpOptions = true,
            description = "Leaves the shell, closing the store (also: Ctrl-D, the end of a script).")
    static final class Exit extends ShellCommand {
        @Override
        public void run() {
            shell().requestExit();
        }
    }
}
