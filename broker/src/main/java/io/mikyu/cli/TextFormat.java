package io.mikyu.cli;

import io.mikyu.cli.units.Units;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LeasedTask;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Record;
import io.mikyu.engine.TaskCounts;
import io.mikyu.engine.TaskQueue;
import io.mikyu.engine.TaskQueueConfig;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.StringJoiner;

/**
 * How the CLI shows engine values as text.
 *
 * <p>A record is one line: {@code offset=3 time=2025-06-01T10:00:00.123Z key=user-1 headers=type=order,region=eu
 * payload=hello}. Keys, header values and payloads that are UTF-8 text print as text, with line breaks escaped
 * as {@code \n} so one record stays one line; anything else prints as {@code base64:...} or {@code hex:...}.
 *
 * <p>A task handed out by {@code dequeue} is one line too: {@code id=7 token=7-1 attempt=1 priority=4
 * lease-until=2025-06-01T10:00:30Z headers=to=ann payload=send email}; the token is what {@code ack}, {@code nack}
 * and {@code extend} take.
 */
final class TextFormat {

    /** How bytes that are not text are shown. */
    enum Binary { BASE64, HEX }

    private TextFormat() {
    }

    static String record(Record record, Binary binary) {
        StringBuilder line = new StringBuilder(64)
                .append("offset=").append(record.offset())
                .append(" time=").append(Instant.ofEpochMilli(record.timestamp()));
        if (record.key() != null) {
            line.append(" key=").append(bytes(record.key(), binary));
        }
        if (!record.headers().isEmpty()) {
            line.append(" headers=").append(headers(record.headers(), binary));
        }
        line.append(" payload=").append(record.isTombstone() ? "<tombstone>" : bytes(record.payload(), binary));
        return line.toString();
    }

    /** The dead-letter headers the engine adds, which {@link #deadLetter} shows by themselves. */
    private static final Set<String> DLQ_HEADERS = Set.of(TaskQueue.DLQ_ORIGINAL_QUEUE, TaskQueue.DLQ_ORIGINAL_ID,
            TaskQueue.DLQ_ATTEMPTS, TaskQueue.DLQ_REASON);

    /** A task just leased: with the token to ack it by and when the lease ends. */
    static String leasedTask(LeasedTask task, Binary binary) {
        StringBuilder line = new StringBuilder(64)
                .append("id=").append(task.id())
                .append(" token=").append(task.token())
                .append(" attempt=").append(task.attempt())
                .append(" priority=").append(task.priority())
                .append(" lease-until=").append(Instant.ofEpochMilli(task.leaseExpiresAt()));
        return taskTail(line, task, task.headers(), binary);
    }

    /** A ready task seen by browse: not leased, so no token; {@code attempt} is its deliveries so far. */
    static String readyTask(LeasedTask task, Binary binary) {
        StringBuilder line = new StringBuilder(64)
                .append("id=").append(task.id())
                .append(" attempts=").append(task.attempt())
                .append(" priority=").append(task.priority())
                .append(" enqueued=").append(Instant.ofEpochMilli(task.enqueuedAt()));
        return taskTail(line, task, task.headers(), binary);
    }

    /** A dead letter: where it came from, after how many attempts and why, then its own headers. */
    static String deadLetter(LeasedTask task, Binary binary) {
        Headers headers = task.headers();
        StringBuilder line = new StringBuilder(64)
                .append("id=").append(task.id())
                .append(" queue=").append(orNone(headers.getString(TaskQueue.DLQ_ORIGINAL_QUEUE)))
                .append(" original-id=").append(orNone(headers.getString(TaskQueue.DLQ_ORIGINAL_ID)))
                .append(" attempts=").append(orNone(headers.getString(TaskQueue.DLQ_ATTEMPTS)))
                .append(" reason=").append(orNone(oneLine(headers.getString(TaskQueue.DLQ_REASON))))
                .append(" priority=").append(task.priority())
                .append(" dead-since=").append(Instant.ofEpochMilli(task.enqueuedAt()));
        return taskTail(line, task, withoutDeadLetterHeaders(headers), binary);
    }

    /** {@code headers} without the ones the engine adds to dead letters. */
    static Headers withoutDeadLetterHeaders(Headers headers) {
        List<Headers.Header> own = headers.asList().stream().filter(h -> !DLQ_HEADERS.contains(h.name())).toList();
        return own.size() == headers.size() ? headers : Headers.of(own);
    }

    private static String taskTail(StringBuilder line, LeasedTask task, Headers headers, Binary binary) {
        if (task.expiresAt() != 0) {
            line.append(" expires=").append(Instant.ofEpochMilli(task.expiresAt()));
        }
        if (!headers.isEmpty()) {
            line.append(" headers=").append(headers(headers, binary));
        }
        return line.append(" payload=").append(bytes(task.payload(), binary)).toString();
    }

    private static String orNone(String value) {
        return value == null ? "-" : value;
    }

    private static String oneLine(String text) {
        return text == null ? null : text.replace("\r", "\\r").replace("\n", "\\n");
    }

    static String counts(TaskCounts counts) {
        return "ready=" + counts.ready() + " scheduled=" + counts.scheduled() + " in-flight=" + counts.inFlight();
    }

    static String headers(Headers headers, Binary binary) {
        StringJoiner joined = new StringJoiner(",");
        for (Headers.Header h : headers.asList()) {
            joined.add(h.name() + "=" + (h.value() == null ? "<null>" : bytes(h.value(), binary)));
        }
        return joined.toString();
    }

    /** {@code bytes} as text if they are printable UTF-8, else encoded and prefixed with the encoding's name. */
    static String bytes(byte[] bytes, Binary binary) {
        String text = printableText(bytes);
        if (text != null) {
            return text.replace("\r", "\\r").replace("\n", "\\n");
        }
        return switch (binary) {
            case BASE64 -> "base64:" + Base64.getEncoder().encodeToString(bytes);
            case HEX -> "hex:" + HexFormat.of().formatHex(bytes);
        };
    }

    /** The UTF-8 text in {@code bytes}, or {@code null} if they are not valid UTF-8 or hold control characters. */
    private static String printableText(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t') {
                return null;
            }
        }
        return text;
    }

    static String config(LogQueueConfig config) {
        return "durability " + config.durability().name().toLowerCase(Locale.ROOT)
                + ", retention age " + (config.retentionAge() == null ? "unlimited" : Units.formatDuration(config.retentionAge()))
                + ", retention bytes " + (config.retentionBytes() < 0 ? "unlimited" : Units.formatBytes(config.retentionBytes()))
                + (config.compacted() ? ", compacted" : "")
                + ", segment " + Units.formatBytes(config.segmentBytes());
    }

    static String config(TaskQueueConfig config) {
        String attempts = config.maxAttempts() == TaskQueueConfig.UNLIMITED_ATTEMPTS ? "unlimited"
                : String.valueOf(config.maxAttempts());
        String multiplier = BigDecimal.valueOf(config.backoffMultiplier()).stripTrailingZeros().toPlainString();
        return "durability " + config.durability().name().toLowerCase(Locale.ROOT)
                + ", max attempts " + attempts
                + ", backoff " + Units.formatDuration(config.backoffInitial()) + " x" + multiplier
                + " up to " + Units.formatDuration(config.backoffMax())
                + ", lease " + Units.formatDuration(config.defaultLease())
                + ", segment " + Units.formatBytes(config.segmentBytes());
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }
}
