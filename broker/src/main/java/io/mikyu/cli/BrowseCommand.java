package io.mikyu.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "browse", mixinStandardHelpOptions = true,
        description = {"Lists the ready tasks of a task queue in delivery order, without leasing them.",
            "One line per task: id, priority, when it was enqueued, expiry, headers and payload. Tasks scheduled"
                + " for later or leased are not listed; 'mikyu list' counts them."},
        footer = {"", "Examples:", "  mikyu browse jobs", "  mikyu browse jobs --max 1000 --header-equals to=ann"})
final class BrowseCommand extends ReadyTasksCommand {

    @Option(names = {"-n", "--max"}, paramLabel = "N", defaultValue = "100",
            description = "Print at most N tasks (default: ${DEFAULT-VALUE}).")
    int max;

    @Override
    int max() {
        return max;
    }
}
