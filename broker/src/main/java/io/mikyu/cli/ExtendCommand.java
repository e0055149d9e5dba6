package io.mikyu.cli;

import io.mikyu.cli.units.Units;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.time.Instant;

@Command(name = "extend", mixinStandardHelpOptions = true,
        description = "Lengthens the lease on a task taken with 'mikyu dequeue' and prints when it now ends.",
        footer = {"", "Example: mikyu extend jobs 7-1 --lease 60s"})
final class ExtendCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "QUEUE")
    String queueName;

    @Parameters(index = "1", paramLabel = "TOKEN", converter = LeaseTokenConverter.class,
            description = "The lease token dequeue printed: <id>-<lease>.")
    LeaseToken token;

    @Option(names = "--lease", paramLabel = "DURATION", converter = Units.DurationConverter.class,
            description = "The lease from now on, such as 60s (default: the queue's lease).")
    Duration lease;

    @Override
    protected int run(Mikyu store) {
        if (lease != null && lease.isZero()) {
            throw usage("--lease must be positive");
        }
        TaskQueue queue = store.taskQueue(queueName);
        long until = queue.extend(token, lease != null ? lease : queue.config().defaultLease());
        out().println("lease on task " + token.taskId() + " now ends at " + Instant.ofEpochMilli(until));
        return 0;
    }
}
