package io.mikyu.cli;

import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.TaskQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;

@Command(name = "ack", mixinStandardHelpOptions = true,
        description = {"Finishes tasks taken with 'mikyu dequeue', by the lease tokens it printed.",
            "Several tokens are acked together, in one write; if any lease no longer holds (it expired and the task"
                + " was handed out again, or the task is already finished), none is acked."},
        footer = {"", "Example: mikyu ack jobs 7-1 8-1"})
final class AckCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "QUEUE")
    String queueName;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "TOKEN", converter = LeaseTokenConverter.class,
            description = "Lease tokens as dequeue prints them: <id>-<lease>.")
    List<LeaseToken> tokens;

    @Override
    protected int run(Mikyu store) {
        TaskQueue queue = store.taskQueue(queueName);
        if (tokens.size() == 1) {
            queue.ack(tokens.get(0));
            out().println("acked task " + tokens.get(0).taskId());
        } else {
            queue.ack(tokens);
            out().println("acked " + tokens.size() + " tasks");
        }
        return 0;
    }
}
