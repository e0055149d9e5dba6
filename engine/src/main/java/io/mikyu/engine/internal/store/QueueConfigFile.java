package io.mikyu.engine.internal.store;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.SharedGroupConfig;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.TaskQueueConfig;
import io.mikyu.engine.internal.files.DurableFiles;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/**
 * A queue's settings, stored beside its data as {@code queue.conf}: a magic first line with the format version,
 * then {@code key=value} lines, so an operator can read it.
 */
final class QueueConfigFile {

    static final String FILE_NAME = "queue.conf";
    private static final String MAGIC = "# mikyu-queue-config 1";

    private QueueConfigFile() {
    }

    static void write(Path dir, LogQueueConfig c) throws IOException {
        DurableFiles.write(dir.resolve(FILE_NAME), text(c).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes the settings of a queue being created into its folder before the folder is published: the file is
     * fsynced, its entry is made durable by the folder's fsync ({@link DurableFiles#writeNew}).
     */
    static void writeNew(Path dir, LogQueueConfig c) throws IOException {
        DurableFiles.writeNew(dir.resolve(FILE_NAME), text(c).getBytes(StandardCharsets.UTF_8));
    }

    /** As {@link #writeNew(Path, LogQueueConfig)}, for a task queue. */
    static void writeNew(Path dir, TaskQueueConfig c) throws IOException {
        DurableFiles.writeNew(dir.resolve(FILE_NAME), taskText(c).getBytes(StandardCharsets.UTF_8));
    }

    private static String text(LogQueueConfig c) {
        return MAGIC + "\n"
                + "kind=log\n"
                + "durability=" + c.durability().name().toLowerCase() + "\n"
                + "retention.age.ms=" + (c.retentionAge() == null ? "" : c.retentionAge().toMillis()) + "\n"
                + "retention.bytes=" + c.retentionBytes() + "\n"
                + "compacted=" + c.compacted() + "\n"
                + "tombstone.retention.ms=" + c.tombstoneRetention().toMillis() + "\n"
                + "segment.bytes=" + c.segmentBytes() + "\n";
    }

    static void write(Path dir, TaskQueueConfig c) throws IOException {
        DurableFiles.write(dir.resolve(FILE_NAME), taskText(c).getBytes(StandardCharsets.UTF_8));
    }

    private static String taskText(TaskQueueConfig c) {
        return MAGIC + "\n"
                + "kind=task\n"
                + "durability=" + c.durability().name().toLowerCase() + "\n"
                + "max.attempts=" + c.maxAttempts() + "\n"
                + "backoff.initial.ms=" + c.backoffInitial().toMillis() + "\n"
                + "backoff.multiplier=" + c.backoffMultiplier() + "\n"
                + "backoff.max.ms=" + c.backoffMax().toMillis() + "\n"
                + "lease.default.ms=" + c.defaultLease().toMillis() + "\n"
                + "segment.bytes=" + c.segmentBytes() + "\n";
    }

    /** Attribute names are stored as {@code attribute.<name>} keys, values in properties escaping. */
    private static final String ATTRIBUTE = "attribute.";

    static void write(Path dir, SharedGroupConfig c) throws IOException {
        Properties extra = new Properties();
        extra.setProperty("kind", "shared-group");
        extra.setProperty("max.in.flight", Integer.toString(c.maxInFlight()));
        c.attributes().forEach((k, v) -> extra.setProperty(ATTRIBUTE + k, v));
        java.io.StringWriter text = new java.io.StringWriter();
        extra.store(text, null);
        // Properties.store starts with a date comment; keep the file reproducible without it
        String body = text.toString().lines().filter(l -> !l.startsWith("#")).collect(
                java.util.stream.Collectors.joining("\n", "", "\n"));
        DurableFiles.write(dir.resolve(FILE_NAME),
                (taskText(c.redelivery()) + body).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The recovery event for a queue whose settings cannot be read (empty after a power loss, damaged, invalid):
     * that queue is not opened, the rest of the store is.
     */
    static RecoveryReport.Event unreadable(Path dir, String what, Exception e) {
        return new RecoveryReport.Event(RecoveryReport.Kind.QUEUE_QUARANTINED, dir.resolve(FILE_NAME).toString(), 0,
                what + " '" + dir.getFileName() + "' not opened, its files left as they are: " + e.getMessage()
                        + "; restore its " + FILE_NAME + " and reopen the store");
    }

    /** Why a name is taken by a queue {@link #unreadable} set aside. */
    static String quarantinedMessage(String what, String name) {
        return what + " '" + name + "' exists but was not opened: its " + FILE_NAME
                + " is damaged (see the recovery report); restore the file and reopen the store";
    }

    static SharedGroupConfig readShared(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        TaskQueueConfig redelivery = readTask(dir);
        try {
            Properties p = load(file);
            java.util.Map<String, String> attributes = new java.util.TreeMap<>();
            for (String key : p.stringPropertyNames()) {
                if (key.startsWith(ATTRIBUTE)) {
                    attributes.put(key.substring(ATTRIBUTE.length()), p.getProperty(key));
                }
            }
            return new SharedGroupConfig(Integer.parseInt(p.getProperty("max.in.flight",
                    String.valueOf(SharedGroupConfig.defaults().maxInFlight()))), redelivery, attributes);
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(file, 0, "invalid shared group config: " + e.getMessage());
        }
    }

    static TaskQueueConfig readTask(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        Properties p = load(file);
        try {
            TaskQueueConfig d = TaskQueueConfig.defaults();
            return d.withDurability(Durability.parse(p.getProperty("durability", "async")))
                    .withMaxAttempts(Integer.parseInt(p.getProperty("max.attempts", String.valueOf(d.maxAttempts()))))
                    .withBackoff(Duration.ofMillis(Long.parseLong(p.getProperty("backoff.initial.ms",
                                    String.valueOf(d.backoffInitial().toMillis())))),
                            Double.parseDouble(p.getProperty("backoff.multiplier",
                                    String.valueOf(d.backoffMultiplier()))),
                            Duration.ofMillis(Long.parseLong(p.getProperty("backoff.max.ms",
                                    String.valueOf(d.backoffMax().toMillis())))))
                    .withDefaultLease(Duration.ofMillis(Long.parseLong(p.getProperty("lease.default.ms",
                            String.valueOf(d.defaultLease().toMillis())))))
                    .withSegmentBytes(Long.parseLong(p.getProperty("segment.bytes",
                            String.valueOf(d.segmentBytes()))));
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(file, 0, "invalid queue config: " + e.getMessage());
        }
    }

    private static Properties load(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (!text.startsWith(MAGIC + "\n")) {
            throw new CorruptionException(file, 0, "not a mikyu queue config (expected first line '" + MAGIC + "')");
        }
        Properties p = new Properties();
        p.load(new StringReader(text));
        return p;
    }

    static LogQueueConfig read(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        Properties p = load(file);
        try {
            LogQueueConfig c = LogQueueConfig.defaults()
                    .withDurability(Durability.parse(p.getProperty("durability", "async")))
                    .withRetentionBytes(Long.parseLong(p.getProperty("retention.bytes", "-1")))
                    .withCompaction(Boolean.parseBoolean(p.getProperty("compacted", "false")))
                    .withTombstoneRetention(Duration.ofMillis(Long.parseLong(
                            p.getProperty("tombstone.retention.ms", "86400000"))))
                    .withSegmentBytes(Long.parseLong(p.getProperty("segment.bytes",
                            String.valueOf(LogQueueConfig.DEFAULT_SEGMENT_BYTES))));
            String age = p.getProperty("retention.age.ms", "");
            return age.isBlank() ? c : c.withRetentionAge(Duration.ofMillis(Long.parseLong(age.trim())));
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(file, 0, "invalid queue config: " + e.getMessage());
        }
    }
}
