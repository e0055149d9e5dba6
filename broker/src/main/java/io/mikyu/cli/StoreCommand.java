package io.mikyu.cli;

import io.mikyu.engine.Headers;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.TaskQueue;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * A command that works on a store: the one in {@code --data-dir} (opened in-process) or the one a daemon serves
 * at {@code --target} (dialled), opened for the command and closed after it. In the shell ({@link Shell}) it
 * works on the shell's store instead, which stays open between commands.
 */
abstract class StoreCommand implements Callable<Integer> {

    @Mixin
    DataDirOption dataDir;

    @Mixin
    TargetOption target;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Shell shell = Shell.of(spec);
        if (shell != null) {
            if (matched("--data-dir") || matched("--target")) {
                throw usage("in the shell, commands work on the shell's store; change it with 'open DIR' or"
                        + " 'connect URI'");
            }
            return run(shell.store());
        }
        try (Mikyu store = open()) {
            return run(store);
        }
    }

    /** The store named on the command line: {@code --target} (or $MIKYU_TARGET) dialled, else the data directory. */
    private Mikyu open() {
        boolean dataDirGiven = matched("--data-dir");
        if (target.target != null && dataDirGiven) {
            throw usage("--target and --data-dir are mutually exclusive: a command works on a daemon's store or"
                    + " on a data directory");
        }
        String uri = target.uri(dataDirGiven);
        return uri != null ? TargetOption.dial(uri, false) : dataDir.open();
    }

    /** Whether the store is a daemon's, reached over the network. */
    protected boolean remote() {
        Shell shell = Shell.of(spec);
        return shell != null ? shell.remote() : target.uri(matched("--data-dir")) != null;
    }

    private boolean matched(String option) {
        var parsed = spec.commandLine().getParseResult();
        return parsed != null && parsed.hasMatchedOption(option);
    }

    /** Does the work; returns the exit code. */
    protected abstract int run(Mikyu store) throws Exception;

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** A usage error of this command: exit 2, pointing at its help. */
    protected ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Headers from {@code NAME=VALUE} texts, as given to {@code option}. */
    protected Headers parseHeaders(List<String> texts, String option) {
        Headers.Builder builder = Headers.builder();
        for (String text : texts) {
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw usage(option + " '" + text + "' is not NAME=VALUE");
            }
            builder.add(text.substring(0, eq), text.substring(eq + 1));
        }
        return builder.build();
    }

    /**
     * The kind of the queue {@code name}: {@code explicit} if given, else the one kind that has a queue of that
     * name. Log and task queues live apart and may share a name; then the user must say which.
     *
     * @return {@code null} if there is no queue of that name
     */
    protected QueueKind kindOf(Mikyu store, String name, QueueKind explicit) {
        if (explicit != null) {
            return explicit;
        }
        boolean log = store.list(QueueKind.LOG).contains(name);
        boolean task = store.list(QueueKind.TASK).contains(name);
        if (log && task) {
            throw usage("there is a log queue and a task queue named '" + name + "'; say which with --type log"
                    + " or --type task");
        }
        return log ? QueueKind.LOG : task ? QueueKind.TASK : null;
    }

    /** Whether {@code name} is a dead-letter queue's, such as {@code jobs/dlq}. */
    static boolean isDeadLetterQueue(String name) {
        return name.endsWith(TaskQueue.DEAD_LETTER_SUFFIX);
    }
}
