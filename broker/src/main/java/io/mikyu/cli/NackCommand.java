package io.mikyu.cli;

import io.mikyu.cli.units.Units;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;

@Command(name = "nack", mixinStandardHelpOptions = true,
        description = {"Gives a task taken with 'mikyu dequeue' back to its queue.",
            "It is handed out again after --delay, or after the queue's backoff; a task that has had the queue's"
                + " maximum attempts goes to the dead-letter queue instead, with --reason."},
        footer = {"", "Example: mikyu nack jobs 7-1 --delay 5s --reason \"smtp timeout\""})
final class NackCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "QUEUE")
    String queueName;

    @Parameters(index = "1", paramLabel = "TOKEN", converter = LeaseTokenConverter.class,
            description = "The lease token dequeue printed: <id>-<lease>.")
    LeaseToken token;

    @Option(names = "--delay", paramLabel = "DELAY", converter = Units.DurationConverter.class,
            description = "Hand it out again after this long, such as 5s (default: the queue's backoff).")
    Duration delay;

    @Option(names = "--reason", paramLabel = "TEXT",
            description = "Why it failed; kept with the task if it goes to the dead-letter queue.")
    String reason;

    @Override
    protected int run(Mikyu store) {
        TaskQueue queue = store.taskQueue(queueName);
        queue.nack(token, delay, reason);
        out().println("nacked task " + token.taskId() + " (handed out again after "
                + (delay != null ? Units.formatDuration(delay) : "the queue's backoff")
                + ", or moved to " + queueName + TaskQueue.DEAD_LETTER_SUFFIX + " if it has had "
                + queue.config().maxAttempts() + " attempts)");
        return 0;
    }
}
