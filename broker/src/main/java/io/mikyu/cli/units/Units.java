package io.mikyu.cli.units;

import io.mikyu.engine.config.ByteSizes;
import io.mikyu.engine.config.Durations;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

/**
 * Sizes and durations on the command line: the same rules as every other surface ({@link ByteSizes},
 * {@link Durations}), except that a duration flag wants a unit: a bare number other than {@code 0} is refused, since
 * whether it meant seconds or milliseconds is exactly the mistake a unit prevents. Picocli names the flag in front
 * of the message.
 */
public final class Units {

    private Units() {
    }

    /** Bytes in {@code text}, e.g. {@code 64MiB}, {@code 1.5GiB}, {@code 1KB}, {@code 4096}. */
    public static long parseBytes(String text) {
        return ByteSizes.parse(null, text);
    }

    /** A duration in {@code text}, e.g. {@code 30s}, {@code 15m}, {@code 12h}, {@code 7d}, {@code 1h30m}, {@code PT15M}. */
    public static Duration parseDuration(String text) {
        return Durations.parse(null, text);
    }

    /** {@code bytes} in the largest binary unit that keeps it at or above 1, e.g. {@code 128 MiB}, {@code 1.5 GiB}. */
    public static String formatBytes(long bytes) {
        return ByteSizes.format(bytes);
    }

    /** {@code duration} in its largest exact unit up to days, e.g. {@code 7d}, {@code 90m}, {@code 1500ms}. */
    public static String formatDuration(Duration duration) {
        return Durations.format(duration);
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
