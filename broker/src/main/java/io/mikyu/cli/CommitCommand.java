package io.mikyu.cli;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

@Command(name = "commit", mixinStandardHelpOptions = true,
        description = {"Commits a consumer group's position.",
            "The position is the offset of the next record the group reads: one past the last record processed."
                + " Creates the group if needed."},
        footer = {"", "Example: mikyu commit events audit 42"})
final class CommitCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "QUEUE")
    String queueName;

    @Parameters(index = "1", paramLabel = "GROUP")
    String groupName;

    @Parameters(index = "2", paramLabel = "OFFSET", description = "The next offset the group reads.")
    long offset;

    @Override
    protected int run(Mikyu store) {
        if (offset < 0) {
            throw new ParameterException(spec.commandLine(), "OFFSET must not be negative");
        }
        LogQueue queue = store.log(queueName);
        if (offset > queue.endOffset()) {
            throw new CommandException("offset " + offset + " is past the end of " + queueName
                    + " (the next record will get offset " + queue.endOffset() + ")");
        }
        ConsumerGroup group = queue.group(groupName);
        group.commit(offset);
        out().println("group " + groupName + " on " + queueName + " committed at offset " + offset
                + " (lag " + group.lag() + ")");
        return 0;
    }
}
