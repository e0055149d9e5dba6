package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.TaskQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "delete", mixinStandardHelpOptions = true,
        description = {"Deletes a queue with its data: a log queue with its consumer groups, a task queue with its"
                + " tasks and its dead-letter queue.", "There is no undo."},
        footer = {"", "A log queue and a task queue may share a name; then say which with --type.",
            "", "Examples:", "  mikyu delete events", "  mikyu delete --type task jobs"})
final class DeleteCommand extends StoreCommand {

    @Parameters(paramLabel = "QUEUE")
    String name;

    @Option(names = "--type", paramLabel = "log|task",
            description = "Kind of queue. Default: the kind that has a queue of this name.")
    QueueKind kind;

    @Override
    protected int run(Mikyu store) {
        if (isDeadLetterQueue(name) && kind != QueueKind.LOG) {
            String owner = name.substring(0, name.length() - TaskQueue.DEAD_LETTER_SUFFIX.length());
            throw new CommandException(name + " is the dead-letter queue of " + owner + " and is deleted with it"
                    + " ('mikyu delete --type task " + owner + "'); to empty it, use 'mikyu dlq redrive " + owner
                    + "'");
        }
        QueueKind which = kindOf(store, name, kind);
        if (which == null) {
            throw new CommandException("no log or task queue named '" + name + "'");
        }
        if (which == QueueKind.TASK) {
            if (!store.deleteTaskQueue(name)) {
                throw new CommandException("no task queue named '" + name + "'");
            }
            out().println("deleted task queue " + name + " and its dead-letter queue " + name
                    + TaskQueue.DEAD_LETTER_SUFFIX);
            return 0;
        }
        if (!store.deleteLog(name)) {
            throw new CommandException("no log queue named '" + name + "'");
        }
        out().println("deleted log queue " + name);
        return 0;
    }
}
