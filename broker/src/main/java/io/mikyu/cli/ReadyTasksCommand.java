package io.mikyu.cli;

import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskFilter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;

/** What {@code peek} and {@code browse} share: ready tasks of a task queue in delivery order, left in place. */
abstract class ReadyTasksCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "QUEUE", description = "A task queue, or a dead-letter queue such as jobs/dlq.")
    String queueName;

    @Mixin
    TaskFilterOption filterOption;

    @Option(names = "--binary-as", paramLabel = "base64|hex", defaultValue = "base64",
            description = "How to print bytes that are not text (default: ${DEFAULT-VALUE}).")
    TextFormat.Binary binary;

    /** How many tasks to print at most. */
    abstract int max();

    @Override
    protected int run(Mikyu store) {
        if (max() < 1) {
            throw usage("--max must be at least 1");
        }
        TaskFilter filter = filterOption.filter(spec);
        List<LeasedTask> tasks = store.taskQueue(queueName).browse(max(), filter);
        PrintWriter out = out();
        if (tasks.isEmpty()) {
            out.println("no ready tasks in " + queueName + (filter == null ? "" : " that match the filter"));
        }
        for (LeasedTask task : tasks) {
            out.println(TextFormat.readyTask(task, binary));
        }
        return 0;
    }
}
