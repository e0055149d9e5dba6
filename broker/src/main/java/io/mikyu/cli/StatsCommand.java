package io.mikyu.cli;

import io.mikyu.cli.units.Units;
import io.mikyu.engine.EngineStats;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.QueueStats;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

@Command(name = "stats", mixinStandardHelpOptions = true,
        description = {"Prints engine statistics and a line per queue, or one queue in detail.",
            "Write-path counters (commits, fsyncs, cache hits) count from when the store was opened: for a"
                + " daemon's store (--target) since the daemon started, for --data-dir now; sizes and offsets are"
                + " the store's."})
final class StatsCommand extends StoreCommand {

    @Parameters(arity = "0..1", paramLabel = "QUEUE",
            description = "A queue to describe in detail: log, task or dead-letter (jobs/dlq).")
    String queueName;

    @Option(names = "--type", paramLabel = "log|task",
            description = "Kind of QUEUE. Default: the kind that has a queue of this name.")
    QueueKind kind;

    @Override
    protected int run(Mikyu store) {
        if (queueName == null) {
            printEngine(store);
            return 0;
        }
        QueueKind which = kindOf(store, queueName, kind);
        if (which == null) {
            throw new CommandException("no log or task queue named '" + queueName + "'");
        }
        if (which == QueueKind.TASK) {
            printTaskQueue(store.taskQueue(queueName));
        } else {
            printQueue(store.log(queueName));
        }
        return 0;
    }

    private void printEngine(Mikyu store) {
        EngineStats s = store.stats();
        PrintWriter out = out();
        if (remote()) {
            out.println("target            " + (Shell.of(spec) != null ? Shell.of(spec).location() : target.uri(false)));
        }
        out.println("location          " + s.location());
        out.println("queues            " + s.logQueues() + " log, " + s.taskQueues() + " task");
        out.println("bytes on disk     " + Units.formatBytes(s.bytesOnDisk()));
        out.println("free disk         " + Units.formatBytes(s.freeDiskBytes()));
        out.println("appended          " + s.appendedRecords() + " records, " + Units.formatBytes(s.appendedBytes()));
        out.println("group commits     " + s.commits() + " (" + s.commitRequests() + " append calls, "
                + String.format(Locale.ROOT, "%.2f", s.requestsPerCommit()) + " per commit)");
        out.println("fsyncs            " + s.fsyncs());
        out.println("ring cache        " + TextFormat.percent(s.cacheHitRate()) + " hits (" + s.cacheHits()
                + " hits, " + s.cacheMisses() + " misses)");
        printLogQueues(store, out);
        printTaskQueues(store, out);
    }

    private static void printLogQueues(Mikyu store, PrintWriter out) {
        var names = store.list(QueueKind.LOG);
        if (names.isEmpty()) {
            return;
        }
        int width = Math.max("QUEUE".length(), names.stream().mapToInt(String::length).max().orElse(0));
        String row = "%-" + width + "s  %12s  %12s  %12s  %10s  %8s%n";
        out.println();
        out.printf(row, "QUEUE", "START", "END", "RECORDS", "SIZE", "SEGMENTS");
        for (String name : names) {
            QueueStats q = store.log(name).stats();
            out.printf(row, name, q.startOffset(), q.endOffset(), q.records(), Units.formatBytes(q.bytesOnDisk()),
                    q.segments());
        }
    }

    private static void printTaskQueues(Mikyu store, PrintWriter out) {
        List<String> names = store.list(QueueKind.TASK);
        if (names.isEmpty()) {
            return;
        }
        int width = Math.max("TASK QUEUE".length(), names.stream().mapToInt(String::length).max().orElse(0));
        String row = "%-" + width + "s  %10s  %10s  %10s  %10s  %8s%n";
        out.println();
        out.printf(row, "TASK QUEUE", "READY", "SCHEDULED", "IN-FLIGHT", "SIZE", "SEGMENTS");
        for (String name : names) {
            TaskQueue queue = store.taskQueue(name);
            TaskCounts c = queue.counts();
            QueueStats q = queue.stats();
            out.printf(row, name, c.ready(), c.scheduled(), c.inFlight(), Units.formatBytes(q.bytesOnDisk()),
                    q.segments());
        }
    }

    private void printTaskQueue(TaskQueue queue) {
        QueueStats q = queue.stats();
        TaskCounts c = queue.counts();
        PrintWriter out = out();
        out.println("queue             " + q.kind().directory() + "/" + queue.name());
        out.println("config            " + TextFormat.config(queue.config()));
        out.println("tasks             " + c.ready() + " ready, " + c.scheduled() + " scheduled, " + c.inFlight()
                + " in flight");
        TaskQueue dlq = queue.deadLetters();
        if (dlq != null) {
            out.println("dead letters      " + dlq.counts().depth() + " in " + dlq.name());
        }
        out.println("bytes on disk     " + Units.formatBytes(q.bytesOnDisk()) + " in " + q.segments()
                + " segments (log of enqueues, leases, acks and nacks)");
        out.println("appended          " + q.appendedRecords() + " records, " + Units.formatBytes(q.appendedBytes()));
    }

    private void printQueue(LogQueue queue) {
        QueueStats q = queue.stats();
        PrintWriter out = out();
        out.println("queue             " + q.kind().directory() + "/" + q.name());
        out.println("config            " + TextFormat.config(queue.config()));
        out.println("offsets           " + q.startOffset() + " (start) .. " + q.endOffset() + " (next append)");
        out.println("records           " + q.records());
        out.println("bytes on disk     " + Units.formatBytes(q.bytesOnDisk()) + " in " + q.segments() + " segments");
        out.println("appended          " + q.appendedRecords() + " records, " + Units.formatBytes(q.appendedBytes()));
        out.println("read              " + q.readRecords() + " records");
        out.println("ring cache        " + TextFormat.percent(q.cacheHitRate()) + " hits (" + q.cacheHits()
                + " hits, " + q.cacheMisses() + " misses)");
        out.println("consumer groups   " + (queue.groups().isEmpty() ? "none" : String.join(", ", queue.groups())));
    }
}
