package io.mikyu.cli;

import io.mikyu.cli.units.Units;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskFilter;
import io.mikyu.engine.TaskQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;

@Command(name = "dequeue", mixinStandardHelpOptions = true,
        description = {"Takes ready tasks from a task queue under a lease and prints them.",
            "One line per task: id, lease token, attempt (1 for the first delivery), priority, when the lease ends,"
                + " headers and payload. Finish a task with 'mikyu ack QUEUE TOKEN' before the lease ends, or it is"
                + " handed out again; give it back with 'mikyu nack'. The lease outlives this command.",
            "Prints nothing (and a note on standard error) if no task was ready within --wait."},
        footer = {"", "Examples:",
            "  mikyu dequeue jobs",
            "  mikyu dequeue jobs --max 10 --lease 5m --wait 30s",
            "  mikyu dequeue jobs --header-equals region=eu"})
final class DequeueCommand extends StoreCommand {

    /** One wait slice: Ctrl-C is noticed within it, without interrupting the engine's I/O. */
    private static final Duration WAIT_SLICE = Duration.ofMillis(250);

    @Parameters(index = "0", paramLabel = "QUEUE")
    String queueName;

    @Option(names = {"-n", "--max"}, paramLabel = "N", defaultValue = "1",
            description = "Take up to N tasks (default: ${DEFAULT-VALUE}).")
    int max;

    @Option(names = "--lease", paramLabel = "DURATION", converter = Units.DurationConverter.class,
            description = "How long the tasks are yours (default: the queue's, see 'mikyu stats QUEUE').")
    Duration lease;

    @Option(names = "--wait", paramLabel = "DURATION", converter = Units.DurationConverter.class, defaultValue = "0s",
            description = "Wait this long for a task if none is ready (default: no wait).")
    Duration wait;

    @Mixin
    TaskFilterOption filterOption;

    @Option(names = "--binary-as", paramLabel = "base64|hex", defaultValue = "base64",
            description = "How to print bytes that are not text (default: ${DEFAULT-VALUE}).")
    TextFormat.Binary binary;

    private volatile boolean stopping;

    @Override
    public Integer call() throws Exception {
        // On Ctrl-C during --wait, stop waiting and close the store; tasks already leased are still printed.
        try (GracefulStop stop = new GracefulStop(() -> stopping = true, Duration.ofSeconds(5))) {
            return super.call();
        }
    }

    @Override
    protected int run(Mikyu store) throws InterruptedException {
        if (max < 1) {
            throw usage("--max must be at least 1");
        }
        if (lease != null && lease.isZero()) {
            throw usage("--lease must be positive");
        }
        TaskFilter filter = filterOption.filter(spec);
        TaskQueue queue = store.taskQueue(queueName);
        Duration taskLease = lease != null ? lease : queue.config().defaultLease();
        long deadline = System.nanoTime() + wait.toNanos();
        List<LeasedTask> tasks;
        while (true) {
            Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            tasks = queue.dequeue(max, taskLease, left.compareTo(WAIT_SLICE) < 0 ? left : WAIT_SLICE, filter);
            if (!tasks.isEmpty() || stopping || System.nanoTime() >= deadline) {
                break;
            }
        }
        PrintWriter out = out();
        for (LeasedTask task : tasks) {
            out.println(TextFormat.leasedTask(task, binary));
        }
        out.flush();
        if (tasks.isEmpty()) {
            err().println("mikyu: no task ready in " + queueName + (filter == null ? "" : " that matches the filter")
                    + (wait.isZero() ? "" : " within " + Units.formatDuration(wait)));
            err().flush();
        }
        return 0;
    }
}
