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

/** A command that opens the store in {@code --data-dir}, works on it, and closes it. */
abstract class StoreCommand implements Callable<Integer> {

    @Mixin
    DataDirOption dataDir;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        try (Mikyu store = dataDir.open()) {
            return run(store);
        }
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
