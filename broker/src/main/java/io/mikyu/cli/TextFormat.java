package io.mikyu.cli;

import io.mikyu.cli.units.Units;
import io.mikyu.engine.Headers;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.Record;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * How the CLI shows engine values as text.
 *
 * <p>A record is one line: {@code offset=3 time=2025-06-01T10:00:00.123Z key=user-1 headers=type=order,region=eu
 * payload=hello}. Keys, header values and payloads that are UTF-8 text print as text, with line breaks escaped
 * as {@code \n} so one record stays one line; anything else prints as {@code base64:...} or {@code hex:...}.
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

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }
}
