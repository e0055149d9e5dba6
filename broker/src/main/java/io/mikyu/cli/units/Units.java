package io.mikyu.cli.units;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats the sizes and durations people type on a command line.
 *
 * <p>Sizes: a number, optionally with a fraction, and a unit. {@code KiB MiB GiB TiB} (and the
 * {@code dd}/{@code -Xmx} shorthands {@code K M G T}) are powers of 1024; {@code KB MB GB TB} are powers of 1000,
 * as the SI prefixes say. Units are case-insensitive; no unit (or {@code B}) means bytes.
 *
 * <p>Durations: one or more number-unit pairs ({@code 500ms}, {@code 30s}, {@code 15m}, {@code 12h}, {@code 7d},
 * {@code 2w}, {@code 1h30m}), or ISO-8601 ({@code PT15M}). A bare number is rejected: whether it meant seconds or
 * milliseconds is exactly the mistake this parser exists to prevent.
 */
public final class Units {

    private static final Map<String, Long> SIZE_UNITS = Map.ofEntries(
            Map.entry("", 1L), Map.entry("b", 1L),
            Map.entry("k", 1L << 10), Map.entry("kib", 1L << 10), Map.entry("kb", 1000L),
            Map.entry("m", 1L << 20), Map.entry("mib", 1L << 20), Map.entry("mb", 1000L * 1000),
            Map.entry("g", 1L << 30), Map.entry("gib", 1L << 30), Map.entry("gb", 1000L * 1000 * 1000),
            Map.entry("t", 1L << 40), Map.entry("tib", 1L << 40), Map.entry("tb", 1000L * 1000 * 1000 * 1000));

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]*)");
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+)(ms|s|m|h|d|w)");

    private Units() {
    }

    /** Bytes in {@code text}, e.g. {@code 64MiB}, {@code 1.5GiB}, {@code 1KB}, {@code 4096}. */
    public static long parseBytes(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(sizeError(text));
        }
        Long multiplier = SIZE_UNITS.get(m.group(2).toLowerCase(Locale.ROOT));
        if (multiplier == null) {
            throw new IllegalArgumentException(sizeError(text));
        }
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(multiplier));
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("size '" + text + "' is too large");
        }
        if (bytes.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("size '" + text + "' is not a whole number of bytes");
        }
        return bytes.longValueExact();
    }

    /** A duration in {@code text}, e.g. {@code 30s}, {@code 15m}, {@code 12h}, {@code 7d}, {@code 1h30m}, {@code PT15M}. */
    public static Duration parseDuration(String text) {
        String trimmed = text.trim();
        if (trimmed.startsWith("P") || trimmed.startsWith("p")) {
            try {
                return Duration.parse(trimmed);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(durationError(text), e);
            }
        }
        Matcher m = DURATION_PART.matcher(trimmed.toLowerCase(Locale.ROOT));
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            long amount = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                case "d" -> Duration.ofDays(amount);
                case "w" -> Duration.ofDays(7 * amount);
                default -> throw new AssertionError(m.group(2));
            });
            end = m.end();
        }
        if (end == 0 || end != trimmed.length()) {
            throw new IllegalArgumentException(durationError(text));
        }
        return total;
    }

    /** {@code bytes} in the largest binary unit that keeps it at or above 1, e.g. {@code 128 MiB}, {@code 1.5 GiB}. */
    public static String formatBytes(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int unit = 0;
        double value = bytes;
        while (Math.abs(value) >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        if (unit == 0 || value == Math.rint(value)) {
            return String.format(Locale.ROOT, "%d %s", (long) value, units[unit]);
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    /** {@code duration} in its largest exact unit up to days, e.g. {@code 7d}, {@code 90m}, {@code 1500ms}. */
    public static String formatDuration(Duration duration) {
        long millis = duration.toMillis();
        long[] sizes = {86_400_000, 3_600_000, 60_000, 1000};
        String[] names = {"d", "h", "m", "s"};
        for (int i = 0; i < sizes.length; i++) {
            if (millis != 0 && millis % sizes[i] == 0) {
                return millis / sizes[i] + names[i];
            }
        }
        return millis + "ms";
    }

    private static String sizeError(String text) {
        return "invalid size '" + text + "' (expected a number and an optional unit: B, KiB, MiB, GiB, TiB"
                + " (powers of 1024) or KB, MB, GB, TB (powers of 1000), e.g. 64MiB)";
    }

    private static String durationError(String text) {
        return "invalid duration '" + text + "' (expected e.g. 500ms, 30s, 15m, 12h, 7d, 2w, 1h30m or PT15M)";
    }

    /** Lets picocli options take sizes: {@code @Option(converter = Units.ByteSizeConverter.class) long bytes}. */
    public static final class ByteSizeConverter implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return parseBytes(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Lets picocli options take durations such as {@code 7d}. */
    public static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return parseDuration(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
