package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
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

    /** Task queues have a folder and a kind in the engine but no operations yet. */
    static void requireLogQueues(QueueKind kind) {
        if (kind == QueueKind.TASK) {
            throw new CommandException("task queues are not available yet in this version of mikyu; use --type log");
        }
    }
}
