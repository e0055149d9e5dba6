package io.mikyu.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "peek", mixinStandardHelpOptions = true,
        description = {"Prints the task a dequeue would hand out next, without leasing it.",
            "Only ready tasks: not those scheduled for later or leased. See also 'mikyu browse'."},
        footer = {"", "Example: mikyu peek jobs --header-equals region=eu"})
final class PeekCommand extends ReadyTasksCommand {

    @Option(names = {"-n", "--max"}, paramLabel = "N", defaultValue = "1",
            description = "Print the next N tasks (default: ${DEFAULT-VALUE}).")
    int max;

    @Override
    int max() {
        return max;
    }
}
