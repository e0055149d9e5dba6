package io.mikyu.cli;

import io.mikyu.cli.units.Units;
import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueue;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.QueueKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

import java.time.Duration;

@Command(name = "create", mixinStandardHelpOptions = true,
        description = "Creates a queue.",
        footer = {"", "Example: mikyu create --type log events --retention-age 7d"})
final class CreateCommand extends StoreCommand {

    @Parameters(paramLabel = "QUEUE", description = "Name: letters, digits, '.', '_' and '-'.")
    String name;

    @Option(names = "--type", paramLabel = "log|task", defaultValue = "log",
            description = "Kind of queue (default: ${DEFAULT-VALUE}). Task queues are not available yet.")
    QueueKind kind;

    @Option(names = "--durability", paramLabel = "sync|async",
            description = "When appends return: after the fsync that covers them (sync), or once written to the OS"
                    + " (async, the default).")
    Durability durability;

    @Option(names = "--retention-age", paramLabel = "AGE", converter = Units.DurationConverter.class,
            description = "Drop records older than this (whole segments): 30s, 15m, 12h, 7d... Default: keep.")
    Duration retentionAge;

    @Option(names = "--retention-bytes", paramLabel = "SIZE", converter = Units.ByteSizeConverter.class,
            description = "Keep the queue under this size (whole segments), such as 10GiB. Default: no limit.")
    Long retentionBytes;

    @Option(names = "--compacted", description = "Keep only the newest record per key.")
    boolean compacted;

    @Option(names = "--segment-bytes", paramLabel = "SIZE", converter = Units.ByteSizeConverter.class,
            description = "Segment file size (default: 128MiB).")
    Long segmentBytes;

    @Override
    protected int run(Mikyu store) {
        requireLogQueues(kind);
        LogQueue queue = store.createLog(name, config());
        out().println("created log queue " + queue.name() + " (" + TextFormat.config(queue.config()) + ")");
        return 0;
    }

    private LogQueueConfig config() {
        // Checked here too so that the error names the option, not the engine's field.
        if (retentionAge != null && (retentionAge.isZero() || retentionAge.isNegative())) {
            throw new ParameterException(spec.commandLine(), "--retention-age must be positive");
        }
        if (retentionBytes != null && retentionBytes < 1) {
            throw new ParameterException(spec.commandLine(), "--retention-bytes must be positive");
        }
        if (segmentBytes != null
                && (segmentBytes < LogQueueConfig.MIN_SEGMENT_BYTES || segmentBytes > LogQueueConfig.MAX_SEGMENT_BYTES)) {
            throw new ParameterException(spec.commandLine(), "--segment-bytes must be between "
                    + Units.formatBytes(LogQueueConfig.MIN_SEGMENT_BYTES) + " and "
                    + Units.formatBytes(LogQueueConfig.MAX_SEGMENT_BYTES));
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
}
