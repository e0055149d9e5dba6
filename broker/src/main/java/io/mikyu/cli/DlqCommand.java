package io.mikyu.cli;

import io.mikyu.engine.Durability;
import io.mikyu.engine.LeaseToken;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

@Command(name = "dlq", mixinStandardHelpOptions = true,
        description = {"Lists the dead letters of a task queue (tasks that used up their attempts), or moves them"
                + " back (redrive).",
            "One line per dead letter: its id in the dead-letter queue, the queue and id it came from, its attempts,"
                + " the reason of the last failure, priority, when it died, its own headers and payload."
                + " Listing leaves them in place."},
        subcommands = {DlqCommand.Redrive.class},
        footer = {"", "Examples:",
            "  mikyu dlq jobs",
            "  mikyu dlq redrive jobs --max 100",
            "", "A queue named like a subcommand is listed with: mikyu dlq -- redrive"})
final class DlqCommand extends StoreCommand {

    // Optional only so that picocli reaches the subcommand; listing needs it.
    @Parameters(index = "0", arity = "0..1", paramLabel = "QUEUE",
            description = "The task queue whose dead letters to list (jobs, or jobs/dlq).")
    String queueName;

    @Option(names = {"-n", "--max"}, paramLabel = "N", defaultValue = "100",
            description = "Print at most N dead letters (default: ${DEFAULT-VALUE}).")
    int max;

    @Option(names = "--binary-as", paramLabel = "base64|hex", defaultValue = "base64",
            description = "How to print bytes that are not text (default: ${DEFAULT-VALUE}).")
    TextFormat.Binary binary;

    @Override
    protected int run(Mikyu store) {
        if (queueName == null) {
            throw usage("missing QUEUE (or the subcommand redrive)");
        }
        if (max < 1) {
            throw usage("--max must be at least 1");
        }
        TaskQueue dlq = deadLetters(store, queueName);
        List<LeasedTask> letters = dlq.browse(max, null);
        PrintWriter out = out();
        if (letters.isEmpty()) {
            long leased = dlq.counts().inFlight();
            out.println("no dead letters in " + dlq.name() + (leased == 0 ? ""
                    : " ready (" + leased + " leased, perhaps by a redrive that is running or was cut short)"));
        }
        for (LeasedTask letter : letters) {
            out.println(TextFormat.deadLetter(letter, binary));
        }
        return 0;
    }

    /** The dead-letter queue of {@code name}, which may name the task queue or its dead-letter queue. */
    static TaskQueue deadLetters(Mikyu store, String name) {
        return store.taskQueue(owner(name)).deadLetters();
    }

    /** {@code jobs} for {@code jobs} and for {@code jobs/dlq}. */
    static String owner(String name) {
        return isDeadLetterQueue(name) ? name.substring(0, name.length() - TaskQueue.DEAD_LETTER_SUFFIX.length())
                : name;
    }

    @Command(name = "redrive", mixinStandardHelpOptions = true,
            description = {"Moves dead letters back into their task queue and prints how many.",
                "Each becomes a new task (new id, attempts from 1) with its payload, priority, expiry and own"
                    + " headers, without the mikyu.dlq.* ones. Oldest first. If the command is cut short, a dead"
                    + " letter may be in both queues, never in neither."},
            footer = {"", "Example: mikyu dlq redrive jobs --max 100"})
    static final class Redrive extends StoreCommand {

        /** Dead letters per round: enqueued in one batch, then acked in one call. */
        private static final int BATCH = 500;
        /** Long enough for one round; if the process dies, the dead letters come back after it. */
        private static final Duration LEASE = Duration.ofMinutes(1);

        @Parameters(index = "0", paramLabel = "QUEUE", description = "The task queue (jobs, or jobs/dlq).")
        String queueName;

        @Option(names = {"-n", "--max"}, paramLabel = "N", description = "Move at most N dead letters (default: all).")
        Long max;

        @Override
        protected int run(Mikyu store) throws InterruptedException {
            if (max != null && max < 1) {
                throw usage("--max must be at least 1");
            }
            TaskQueue queue = store.taskQueue(owner(queueName));
            TaskQueue dlq = queue.deadLetters();
            long limit = max != null ? max : Long.MAX_VALUE;
            long moved = 0;
            while (moved < limit) {
                List<LeasedTask> letters = dlq.dequeue((int) Math.min(BATCH, limit - moved), LEASE, Duration.ZERO, null);
                if (letters.isEmpty()) {
                    break;
                }
                List<Task> tasks = new ArrayList<>(letters.size());
                List<LeaseToken> tokens = new ArrayList<>(letters.size());
                for (LeasedTask letter : letters) {
                    tasks.add(new Task(letter.payload(), TextFormat.withoutDeadLetterHeaders(letter.headers()),
                            letter.priority(), 0, letter.expiresAt()));
                    tokens.add(letter.token());
                }
                // Durable in the queue before they leave the dead-letter queue: a crash in between duplicates a
                // task rather than losing it.
                queue.enqueueBatch(tasks, Durability.SYNC);
                dlq.ack(tokens);
                moved += letters.size();
            }
            out().println("moved " + moved + " dead letter" + (moved == 1 ? "" : "s") + " from " + dlq.name()
                    + " back to " + queue.name());
            return 0;
        }
    }
}
