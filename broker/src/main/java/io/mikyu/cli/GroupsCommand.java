package io.mikyu.cli;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.OffsetReset;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

@Command(name = "groups", mixinStandardHelpOptions = true,
        description = {"Lists, moves and deletes the consumer groups of a log queue.",
            "The list shows each group's position (the next offset it reads), its lag (records from the position"
                + " to the end) and whether it ever committed."},
        subcommands = {GroupsCommand.Reset.class, GroupsCommand.Delete.class},
        footer = {"", "Examples:",
            "  mikyu groups events",
            "  mikyu groups reset events audit --to-earliest",
            "  mikyu groups reset events audit --to-time 2025-06-01T00:00:00Z",
            "  mikyu groups delete events audit",
            "", "A queue named like a subcommand is listed with: mikyu groups -- reset"})
final class GroupsCommand extends StoreCommand {

    // Optional only so that picocli reaches the subcommands; listing needs it.
    @Parameters(index = "0", arity = "0..1", paramLabel = "QUEUE", description = "The log queue whose groups to list.")
    String queueName;

    @Override
    protected int run(Mikyu store) {
        if (queueName == null) {
            throw new ParameterException(spec.commandLine(), "missing QUEUE (or a subcommand: reset, delete)");
        }
        LogQueue queue = store.log(queueName);
        List<String> names = queue.groups();
        PrintWriter out = out();
        if (names.isEmpty()) {
            out.println("no consumer groups on " + queueName);
            return 0;
        }
        int width = Math.max("GROUP".length(), names.stream().mapToInt(String::length).max().orElse(0));
        String row = "%-" + width + "s  %12s  %12s  %s%n";
        out.printf(row, "GROUP", "POSITION", "LAG", "COMMITTED");
        for (String name : names) {
            ConsumerGroup group = queue.group(name);
            out.printf(row, name, group.position(), group.lag(), group.hasCommitted() ? "yes" : "no");
        }
        return 0;
    }

    @Command(name = "reset", mixinStandardHelpOptions = true,
            description = "Moves a consumer group's committed position (creating the group if needed) and prints it.")
    static final class Reset extends StoreCommand {

        @Parameters(index = "0", paramLabel = "QUEUE")
        String queueName;

        @Parameters(index = "1", paramLabel = "GROUP")
        String groupName;

        @ArgGroup(exclusive = true, multiplicity = "1")
        Target target;

        static final class Target {
            @Option(names = "--to-earliest", required = true, description = "To the first stored record.")
            boolean earliest;

            @Option(names = "--to-latest", required = true, description = "To the end: only new records are read.")
            boolean latest;

            @Option(names = "--to-offset", required = true, paramLabel = "OFFSET",
                    description = "To an offset (clamped to the stored records).")
            Long offset;

            @Option(names = "--to-time", required = true, paramLabel = "TIME",
                    description = "To the first record stored at or after an ISO-8601 instant such as 2025-06-01T12:00:00Z.")
            String time;
        }

        @Override
        protected int run(Mikyu store) {
            ConsumerGroup group = store.log(queueName).group(groupName);
            long position = group.reset(reset());
            out().println("group " + groupName + " on " + queueName + " is at offset " + position
                    + " (lag " + group.lag() + ")");
            return 0;
        }

        private OffsetReset reset() {
            if (target.earliest) {
                return OffsetReset.earliest();
            }
            if (target.latest) {
                return OffsetReset.latest();
            }
            if (target.offset != null) {
                return OffsetReset.toOffset(target.offset);
            }
            try {
                return OffsetReset.toTimestamp(Instant.parse(target.time).toEpochMilli());
            } catch (DateTimeParseException e) {
                throw new ParameterException(spec.commandLine(), "invalid --to-time '" + target.time
                        + "' (expected an ISO-8601 instant such as 2025-06-01T12:00:00Z)");
            }
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = "Deletes a consumer group and its committed position.")
    static final class Delete extends StoreCommand {

        @Parameters(index = "0", paramLabel = "QUEUE")
        String queueName;

        @Parameters(index = "1", paramLabel = "GROUP")
        String groupName;

        @Override
        protected int run(Mikyu store) {
            if (!store.log(queueName).deleteGroup(groupName)) {
                throw new CommandException("no consumer group '" + groupName + "' on " + queueName);
            }
            out().println("deleted group " + groupName + " on " + queueName);
            return 0;
        }
    }
}
