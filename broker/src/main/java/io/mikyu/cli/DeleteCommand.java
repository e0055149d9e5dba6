package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "delete", mixinStandardHelpOptions = true,
        description = {"Deletes a queue with its records and consumer groups.", "There is no undo."})
final class DeleteCommand extends StoreCommand {

    @Parameters(paramLabel = "QUEUE")
    String name;

    @Option(names = "--type", paramLabel = "log|task", defaultValue = "log",
            description = "Kind of queue (default: ${DEFAULT-VALUE}).")
    QueueKind kind;

    @Override
    protected int run(Mikyu store) {
        requireLogQueues(kind);
        if (!store.deleteLog(name)) {
            throw new CommandException("no log queue named '" + name + "'");
        }
        out().println("deleted log queue " + name);
        return 0;
    }
}
