package io.mikyu.engine.config;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one reader of sizes in bytes, for every surface (config file, system properties, URL options, the resource
 * adapter's properties, command-line flags). The rules ({@code docs/configuration.md}, "Values: durations and
 * sizes"): a number and an optional unit, case-insensitive, a space between them allowed. No unit or {@code B}:
 * bytes; {@code KiB MiB GiB TiB} and their shorthands {@code K M G T} (as {@code -Xmx} and {@code dd} have them):
 * powers of 1024; {@code KB MB GB TB}: powers of 1000, as the SI prefixes say. A fraction is allowed where it makes
 * whole bytes ({@code 1.5GiB}, not {@code 0.5B}). Negative sizes and sizes beyond the key's bounds (at most
 * {@link Long#MAX_VALUE}) are refused, naming the key and the accepted forms.
 */
public final class ByteSizes {

    /** The accepted forms, as error messages and docs say them. */
    public static final String FORMS = "a number and an optional unit: B, KiB, MiB, GiB, TiB (or K, M, G, T: powers"
            + " of 1024) or KB, MB, GB, TB (powers of 1000), e.g. 512, 64KiB, 8MiB, 1GiB";

    private static final Map<String, Long> UNITS = Map.ofEntries(
            Map.entry("", 1L), Map.entry("b", 1L),
            Map.entry("k", 1L << 10), Map.entry("kib", 1L << 10), Map.entry("kb", 1000L),
            Map.entry("m", 1L << 20), Map.entry("mib", 1L << 20), Map.entry("mb", 1000L * 1000),
            Map.entry("g", 1L << 30), Map.entry("gib", 1L << 30), Map.entry("gb", 1000L * 1000 * 1000),
            Map.entry("t", 1L << 40), Map.entry("tib", 1L << 40), Map.entry("tb", 1000L * 1000 * 1000 * 1000));

    private static final Pattern SIZE = Pattern.compile("(-?\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]*)");

    private ByteSizes() {
    }

    /**
     * Bytes in {@code text}, 0 to {@link Long#MAX_VALUE}.
     *
     * @param key what the value is for, named in the error; {@code null} when the caller names it (a flag)
     * @throws IllegalArgumentException naming the key and the accepted forms
     */
    public static long parse(String key, String text) {
        return parse(key, text, 0, Long.MAX_VALUE);
    }

    /** Bytes in {@code text}, 0 to {@link Integer#MAX_VALUE} (a size that must fit an array or a frame). */
    public static int parseInt(String key, String text) {
        return (int) parse(key, text, 0, Integer.MAX_VALUE);
    }

    /**
     * Bytes in {@code text}, {@code min} to {@code max}.
     *
     * @throws IllegalArgumentException naming the key, the bounds and the accepted forms
     */
    public static long parse(String key, String text, long min, long max) {
        Matcher m = SIZE.matcher(text == null ? "" : text.trim());
        Long multiplier = m.matches() ? UNITS.get(m.group(2).toLowerCase(Locale.ROOT)) : null;
        if (multiplier == null) {
            throw invalid(key, text, "");
        }
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(multiplier));
        if (bytes.signum() < 0) {
            throw invalid(key, text, "must not be negative; ");
        }
        if (bytes.stripTrailingZeros().scale() > 0) {
            throw invalid(key, text, "not a whole number of bytes; ");
        }
        if (bytes.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw invalid(key, text, "at most " + max + " bytes (" + format(max) + "); ");
        }
        if (bytes.compareTo(BigDecimal.valueOf(min)) < 0) {
            throw invalid(key, text, "at least " + min + " bytes (" + format(min) + "); ");
        }
        return bytes.longValueExact();
    }

    private static IllegalArgumentException invalid(String key, String text, String why) {
        return InvalidValue.of("size", key, text, why + "expected " + FORMS);
    }

    /** {@code bytes} in the largest binary unit that keeps it at or above 1, e.g. {@code 128 MiB}, {@code 1.5 GiB}. */
    public static String format(long bytes) {
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
}
