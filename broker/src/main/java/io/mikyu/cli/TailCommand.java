package io.mikyu.cli;

import io.mikyu.engine.ConsumerGroup;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Record;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;

@Command(name = "tail", mixinStandardHelpOptions = true,
        description = {"Prints records of a log queue as they arrive, until Ctrl-C or --count records.",
            "Without --group it starts at the end (new records only) unless --from or --from-start says otherwise."
                + " With --group it starts at the group's committed position and commits what it printed."},
        footer = {"", "Examples:",
            "  mikyu tail events                       # new records, until Ctrl-C",
            "  mikyu tail events --from-start --count 10",
            "  mikyu tail events --group audit         # resumes where the group left off"})
final class TailCommand extends StoreCommand {

    /**
     * How long one long-poll waits. Short enough that Ctrl-C stops within it without interrupting the thread:
     * an interrupt during file I/O would close the engine's channels under it.
     */
    private static final Duration POLL_WAIT = Duration.ofMillis(250);
    private static final int POLL_RECORDS = 500;

    @Parameters(index = "0", paramLabel = "QUEUE")
    String queueName;

    @ArgGroup(exclusive = true)
    Start start;

    static final class Start {
        @Option(names = "--from", paramLabel = "OFFSET", description = "Start at this offset.")
        Long offset;

        @Option(names = "--from-start", description = "Start at the first stored record.")
        boolean fromStart;

        @Option(names = "--from-end", description = "Start after the last record (the default without --group).")
        boolean fromEnd;
    }

    @Option(names = {"-g", "--group"}, paramLabel = "GROUP",
            description = "Read from this consumer group's position and commit after each batch printed.")
    String groupName;

    @Option(names = {"-n", "--count"}, paramLabel = "N", description = "Stop after N records.")
    Long count;

    @Option(names = "--binary-as", paramLabel = "base64|hex", defaultValue = "base64",
            description = "How to print bytes that are not text (default: ${DEFAULT-VALUE}).")
    TextFormat.Binary binary;

    private volatile boolean stopping;

    @Override
    public Integer call() throws Exception {
        Shell shell = Shell.of(spec);
        if (shell != null) {
            // In the shell, Ctrl-C ends the tail (after the batch in hand and its commit), not the shell.
            try (AutoCloseable stop = shell.onInterrupt(() -> stopping = true)) {
                return super.call();
            }
        }
        // On Ctrl-C, finish the batch in hand (and its commit) and close the store before the JVM exits.
        try (GracefulStop stop = new GracefulStop(() -> stopping = true, Duration.ofSeconds(5))) {
            return super.call();
        }
    }

    @Override
    protected int run(Mikyu store) throws InterruptedException {
        if (groupName != null && start != null) {
            throw new ParameterException(spec.commandLine(), "--group reads from the group's committed position;"
                    + " to move it, use 'mikyu groups reset' instead of --from");
        }
        if (count != null && count < 1) {
            throw new ParameterException(spec.commandLine(), "--count must be at least 1");
        }
        LogQueue queue = store.log(queueName);
        ConsumerGroup group = groupName == null ? null : queue.group(groupName);
        long next = group != null ? group.position() : startOffset(queue);
        long remaining = count == null ? Long.MAX_VALUE : count;
        PrintWriter out = out();
        while (remaining > 0 && !stopping) {
            List<Record> records = queue.poll(next, (int) Math.min(remaining, POLL_RECORDS), POLL_WAIT);
            for (int i = 0; i < records.size() && remaining > 0; i++, remaining--) {
                Record record = records.get(i);
                out.println(TextFormat.record(record, binary));
                next = record.offset() + 1;
            }
            // PrintWriter swallows write errors; checkError() is how `mikyu tail q | head` learns head has gone.
            if (out.checkError()) {
                break;
            }
            if (group != null && !records.isEmpty()) {
                group.commit(next);
            }
        }
        return 0;
    }

    private long startOffset(LogQueue queue) {
        if (start == null || start.fromEnd) {
            return queue.endOffset();
        }
        if (start.fromStart) {
            return queue.startOffset();
        }
        if (start.offset < 0) {
            throw new ParameterException(spec.commandLine(), "--from must not be negative");
        }
        return start.offset;
    }
}
