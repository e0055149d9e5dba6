package io.mikyu.engine.internal.store;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.Durability;
import io.mikyu.engine.LogQueueConfig;

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
        String text = MAGIC + "\n"
                + "kind=log\n"
                + "durability=" + c.durability().name().toLowerCase() + "\n"
                + "retention.age.ms=" + (c.retentionAge() == null ? "" : c.retentionAge().toMillis()) + "\n"
                + "retention.bytes=" + c.retentionBytes() + "\n"
                + "compacted=" + c.compacted() + "\n"
                + "tombstone.retention.ms=" + c.tombstoneRetention().toMillis() + "\n"
                + "segment.bytes=" + c.segmentBytes() + "\n";
        Files.writeString(dir.resolve(FILE_NAME), text, StandardCharsets.UTF_8);
    }

    static LogQueueConfig read(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        if (!text.startsWith(MAGIC + "\n")) {
            throw new CorruptionException(file, 0, "not a mikyu queue config (expected first line '" + MAGIC + "')");
        }
        Properties p = new Properties();
        p.load(new StringReader(text));
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
