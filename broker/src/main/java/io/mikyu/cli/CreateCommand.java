package io.mikyu.cli;

import io.mikyu.cli.units.Units;
import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

@Command(name = "create", mixinStandardHelpOptions = true,
        description = {"Creates a queue.",
            "A log queue (the default) is an append-only stream read by offset. A task queue is a work queue with"
                + " leases, acks, retries with backoff and a dead-letter queue <name>/dlq, created with it."},
        footer = {"", "Examples:",
            "  mikyu create --type log events --retention-age 7d",
            "  mikyu create --type task jobs --max-attempts 5 --backoff 1s --backoff-max 5m --lease 30s"})
final class CreateCommand extends StoreCommand {

    @Parameters(paramLabel = "QUEUE", description = "Name: letters, digits, '.', '_' and '-'.")
    String name;

    @Option(names = "--type", paramLabel = "log|task", defaultValue = "log",
            description = "Kind of queue (default: ${DEFAULT-VALUE}).")
    QueueKind kind;

    @Option(names = "--durability", paramLabel = "sync|async",
            description = "When writes return: after the fsync that covers them (sync), or once written to the OS"
                    + " (async, the default). For task queues: enqueues, leases, acks and nacks.")
    Durability durability;

    @Option(names = "--segment-bytes", paramLabel = "SIZE", converter = Units.ByteSizeConverter.class,
            description = "Segment file size (default: 128MiB for log queues, 64MiB for task queues).")
    Long segmentBytes;

    // Log queues only.

    @Option(names = "--retention-age", paramLabel = "AGE", converter = Units.DurationConverter.class,
            description = "Log: drop records older than this (whole segments): 30s, 15m, 12h, 7d... Default: keep.")
    Duration retentionAge;

    @Option(names = "--retention-bytes", paramLabel = "SIZE", converter = Units.ByteSizeConverter.class,
            description = "Log: keep the queue under this size (whole segments), such as 10GiB. Default: no limit.")
    Long retentionBytes;

    @Option(names = "--compacted", description = "Log: keep only the newest record per key.")
    boolean compacted;

    // Task queues only.

    @Option(names = "--max-attempts", paramLabel = "N",
            description = "Task: deliveries before a task goes to the dead-letter queue (default: 10).")
    Integer maxAttempts;

    @Option(names = "--backoff", paramLabel = "DELAY", converter = Units.DurationConverter.class,
            description = "Task: wait before the first redelivery after a nack or an expired lease (default: 1s).")
    Duration backoff;

    @Option(names = "--backoff-multiplier", paramLabel = "X",
            description = "Task: each further redelivery waits this many times longer (default: 2).")
    Double backoffMultiplier;

    @Option(names = "--backoff-max", paramLabel = "DELAY", converter = Units.DurationConverter.class,
            description = "Task: the longest wait before a redelivery (default: 5m).")
    Duration backoffMax;

    @Option(names = "--lease", paramLabel = "DURATION", converter = Units.DurationConverter.class,
            description = "Task: lease of a dequeue that does not name one (default: 30s).")
    Duration lease;

    @Override
    protected int run(Mikyu store) {
        checkSegmentBytes();
        if (kind == QueueKind.TASK) {
            TaskQueue queue = store.createTaskQueue(name, taskConfig());
            out().println("created task queue " + queue.name() + " (" + TextFormat.config(queue.config())
                    + ") and its dead-letter queue " + queue.name() + TaskQueue.DEAD_LETTER_SUFFIX);
            return 0;
        }
        LogQueue queue = store.createLog(name, logConfig());
        out().println("created log queue " + queue.name() + " (" + TextFormat.config(queue.config()) + ")");
        return 0;
    }

    private void checkSegmentBytes() {
        // Checked here too so that the error names the option, not the engine's field.
        if (segmentBytes != null
                && (segmentBytes < LogQueueConfig.MIN_SEGMENT_BYTES || segmentBytes > LogQueueConfig.MAX_SEGMENT_BYTES)) {
            throw usage("--segment-bytes must be between " + Units.formatBytes(LogQueueConfig.MIN_SEGMENT_BYTES)
                    + " and " + Units.formatBytes(LogQueueConfig.MAX_SEGMENT_BYTES));
        }
    }

    private LogQueueConfig logConfig() {
        rejectOptionsOfTheOtherKind(taskOnlyOptions(), "task");
        if (retentionAge != null && (retentionAge.isZero() || retentionAge.isNegative())) {
            throw usage("--retention-age must be positive");
        }
        if (retentionBytes != null && retentionBytes < 1) {
            throw usage("--retention-bytes must be positive");
        }
        LogQueueConfig config = LogQueueConfig.defaults();
        if (durability != null) {
            config = config.withDurability(durability);
        }
        if (retentionAge != null) {
            config = config.withRetentionAge(retentionAge);
        }
        if (retentionBytes != null) {
            config = config.withRetentionBytes(retentionBytes);
        }
        if (segmentBytes != null) {
            config = config.withSegmentBytes(segmentBytes);
        }
        return config.withCompaction(compacted);
    }

    private TaskQueueConfig taskConfig() {
        Map<String, Object> logOnly = new LinkedHashMap<>();
        logOnly.put("--retention-age", retentionAge);
        logOnly.put("--retention-bytes", retentionBytes);
        logOnly.put("--compacted", compacted ? Boolean.TRUE : null);
        rejectOptionsOfTheOtherKind(logOnly, "log");
        if (maxAttempts != null && maxAttempts < 1) {
            throw usage("--max-attempts must be at least 1");
        }
        if (backoffMultiplier != null && !(backoffMultiplier >= 1.0 && backoffMultiplier <= 1000)) {
            throw usage("--backoff-multiplier must be between 1 and 1000");
        }
        if (lease != null && lease.isZero()) {
            throw usage("--lease must be positive");
        }
        TaskQueueConfig config = TaskQueueConfig.defaults();
        if (durability != null) {
            config = config.withDurability(durability);
        }
        if (maxAttempts != null) {
            config = config.withMaxAttempts(maxAttempts);
        }
        Duration initial = backoff != null ? backoff : config.backoffInitial();
        Duration max = backoffMax != null ? backoffMax : config.backoffMax();
        if (initial.compareTo(max) > 0) {
            throw usage("--backoff " + Units.formatDuration(initial) + " is longer than --backoff-max "
                    + Units.formatDuration(max) + (backoffMax == null ? " (the default)" : ""));
        }
        config = config.withBackoff(initial, backoffMultiplier != null ? backoffMultiplier : config.backoffMultiplier(),
                max);
        if (lease != null) {
            config = config.withDefaultLease(lease);
        }
        if (segmentBytes != null) {
            config = config.withSegmentBytes(segmentBytes);
        }
        return config;
    }

    private Map<String, Object> taskOnlyOptions() {
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("--max-attempts", maxAttempts);
        options.put("--backoff", backoff);
        options.put("--backoff-multiplier", backoffMultiplier);
        options.put("--backoff-max", backoffMax);
        options.put("--lease", lease);
        return options;
    }

    /** A setting of the other kind of queue is a mistake, not something to ignore. */
    private void rejectOptionsOfTheOtherKind(Map<String, Object> options, String otherKind) {
        for (Map.Entry<String, Object> option : options.entrySet()) {
            if (option.getValue() != null) {
                throw usage(option.getKey() + " applies to " + otherKind + " queues only (this is --type "
                        + kind.directory() + ")");
            }
        }
    }
}
