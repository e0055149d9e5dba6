package io.mikyu.cli;

import io.mikyu.cli.units.Units;
import io.mikyu.engine.Durability;
import io.mikyu.engine.Headers;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.Task;
import io.mikyu.engine.TaskQueue;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

@Command(name = "enqueue", mixinStandardHelpOptions = true,
        description = {"Enqueues a task on a task queue and prints its id.",
            "With '-' or --stdin, enqueues one task per line of standard input, in batches."},
        footer = {"", "Examples:",
            "  mikyu enqueue jobs \"send email\"",
            "  mikyu enqueue jobs --header to=ann --priority 7 --delay 10s '{\"id\":1}'",
            "  mikyu enqueue jobs --at 2025-06-01T09:00:00Z --ttl 1h \"morning report\"",
            "  seq 1000 | mikyu enqueue jobs -"})
final class EnqueueCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "QUEUE")
    String queueName;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PAYLOAD",
            description = "The payload, as UTF-8 text; '-' reads lines from standard input.")
    String payload;

    @Option(names = "--stdin", description = "Read payloads from standard input, one task per line.")
    boolean stdin;

    @Option(names = "--header", paramLabel = "NAME=VALUE", description = "A header; repeat for more.")
    List<String> headers = List.of();

    @Option(names = "--priority", paramLabel = "0-9",
            description = "Higher is handed out first; FIFO within a priority (default: " + Task.DEFAULT_PRIORITY + ").")
    Integer priority;

    @ArgGroup(exclusive = true)
    When when;

    static final class When {
        @Option(names = "--delay", paramLabel = "DELAY", converter = Units.DurationConverter.class,
                description = "Not handed out before this long from now, such as 10s or 2h.")
        Duration delay;

        @Option(names = "--at", paramLabel = "TIME",
                description = "Not handed out before this ISO-8601 instant, such as 2025-06-01T09:00:00Z.")
        String at;
    }

    @Option(names = "--ttl", paramLabel = "DURATION", converter = Units.DurationConverter.class,
            description = "Dropped, never handed out, if not dequeued within this long from now, such as 1h.")
    Duration ttl;

    @Option(names = "--durability", paramLabel = "sync|async",
            description = "Override the queue's durability for this enqueue.")
    Durability durability;

    // Tests substitute standard input here.
    InputStream input = System.in;

    @Override
    protected int run(Mikyu store) throws IOException {
        if (stdin && payload != null) {
            throw usage("give a PAYLOAD or --stdin, not both");
        }
        boolean fromStdin = stdin || "-".equals(payload);
        if (fromStdin && Shell.of(spec) != null) {
            throw usage("the shell reads its commands from standard input; give the payload on the line");
        }
        if (!fromStdin && payload == null) {
            throw usage("missing PAYLOAD (or '-' to read standard input)");
        }
        if (priority != null && (priority < 0 || priority > 9)) {
            throw usage("--priority must be 0-9");
        }
        if (ttl != null && ttl.isZero()) {
            throw usage("--ttl must be positive");
        }
        Instant deliverAt = deliverAt();
        Headers taskHeaders = parseHeaders(headers, "--header");
        TaskQueue queue = store.taskQueue(queueName);
        Durability mode = durability != null ? durability : queue.config().durability();
        if (!fromStdin) {
            out().println(queue.enqueue(task(payload, taskHeaders, deliverAt), mode));
            return 0;
        }
        enqueueLines(queue, mode, taskHeaders, deliverAt);
        return 0;
    }

    private void enqueueLines(TaskQueue queue, Durability mode, Headers taskHeaders, Instant deliverAt)
            throws IOException {
        StdinBatches.Written w = StdinBatches.write(input, line -> task(line, taskHeaders, deliverAt),
                t -> t.payload().length, batch -> queue.enqueueBatch(batch, mode));
        long count = w.count();
        long first = w.first();
        if (count == 0) {
            out().println("enqueued 0 tasks (standard input was empty)");
        } else {
            out().println("enqueued " + count + (count == 1 ? " task" : " tasks") + " from id " + first);
        }
    }

    private Task task(String text, Headers taskHeaders, Instant deliverAt) {
        Task task = Task.of(text).withHeaders(taskHeaders);
        if (priority != null) {
            task = task.withPriority(priority);
        }
        if (deliverAt != null) {
            task = task.deliverAt(deliverAt);
        }
        if (ttl != null) {
            task = task.withTimeToLive(ttl);
        }
        return task;
    }

    /** When the tasks become deliverable: {@code null} for at once. Fixed once, so a batch shares it. */
    private Instant deliverAt() {
        if (when == null) {
            return null;
        }
        if (when.delay != null) {
            return when.delay.isZero() ? null : Instant.now().plus(when.delay);
        }
        try {
            return Instant.parse(when.at);
        } catch (DateTimeParseException e) {
            throw usage("invalid --at '" + when.at + "' (expected an ISO-8601 instant such as 2025-06-01T09:00:00Z)");
        }
    }
}
