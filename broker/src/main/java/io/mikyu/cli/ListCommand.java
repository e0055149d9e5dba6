package io.mikyu.cli;

import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"Lists queues.",
            "One per line as KIND/NAME (log/events), or with --type only the names of that kind."})
final class ListCommand extends StoreCommand {

    @Option(names = "--type", paramLabel = "log|task", description = "Only queues of this kind; prints bare names.")
    QueueKind kind;

    @Override
    protected int run(Mikyu store) {
        if (kind != null) {
            store.list(kind).forEach(out()::println);
            return 0;
        }
        for (QueueKind each : QueueKind.values()) {
            for (String name : store.list(each)) {
                out().println(each.directory() + "/" + name);
            }
        }
        return 0;
    }
}
