package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"Lists queues.",
            "One per line as KIND/NAME (log/events); task queues, dead-letter queues (task/jobs/dlq) included, with"
                + " how many tasks are ready, scheduled for later and in flight (leased). With --type, only the"
                + " bare names of that kind."})
final class ListCommand extends StoreCommand {

    @Option(names = "--type", paramLabel = "log|task", description = "Only queues of this kind; prints bare names.")
    QueueKind kind;

    @Override
    protected int run(Mikyu store) {
        if (kind != null) {
            store.list(kind).forEach(out()::println);
            return 0;
        }
        for (String name : store.list(QueueKind.LOG)) {
            out().println(QueueKind.LOG.directory() + "/" + name);
        }
        for (String name : store.list(QueueKind.TASK)) {
            out().println(QueueKind.TASK.directory() + "/" + name + " "
                    + TextFormat.counts(store.taskQueue(name).counts()));
        }
        return 0;
    }
}
