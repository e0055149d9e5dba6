package io.mikyu.engine.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one reader of durations, for every surface: the config file, {@code -Dmikyu.<key>} system properties, URL
 * options ({@code vm://}, {@code tcp://}, {@code Mikyu.dial}), the resource adapter's properties and command-line
 * flags. The rules ({@code docs/configuration.md}, "Values: durations and sizes"):
 *
 * <ul>
 * <li>a whole number and a unit, {@code ms}, {@code s}, {@code m}, {@code h}, {@code d} or {@code w}
 * (case-insensitive, a space between the two allowed): {@code 250ms}, {@code 5s}, {@code 2m}, {@code 1h},
 * {@code 1d}, {@code 2w};</li>
 * <li>several of those written together: {@code 1h30m};</li>
 * <li>ISO-8601: {@code PT5S}, {@code PT0.5S}, {@code P1D};</li>
 * <li>{@code 0}: zero;</li>
 * <li>any other bare number only where the key documents the unit it is read in
 * ({@link #parse(String, String, ChronoUnit)}: milliseconds for the config file's and the network client's
 * durations, as they always were); elsewhere (the command line) it is refused, since whether {@code 30} meant
 * seconds or milliseconds is exactly the mistake a unit prevents.</li>
 * </ul>
 *
 * <p>Negative durations, fractions of a unit other than in ISO-8601, and durations of more than
 * {@link Long#MAX_VALUE} milliseconds are refused. A refusal names the key and the accepted forms.
 */
public final class Durations {

    /** The accepted forms, as error messages and docs say them. */
    public static final String FORMS = "a whole number and a unit: ms, s, m, h, d or w, e.g. 250ms, 5s, 2m, 1h, 1d,"
            + " 1h30m; or ISO-8601, e.g. PT5S";

    private static final Pattern BARE = Pattern.compile("[+-]?\\d+");
    private static final Pattern PART = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d|w)");

    private Durations() {
    }

    /**
     * The duration {@code text} says, a bare number other than {@code 0} refused.
     *
     * @param key what the value is for, named in the error; {@code null} when the caller names it (a flag)
     * @throws IllegalArgumentException naming the key and the accepted forms
     */
    public static Duration parse(String key, String text) {
        return parse(key, text, null);
    }

    /**
     * The duration {@code text} says, a bare number read in {@code bareUnit} (the unit the key documents; {@code null}:
     * refused unless {@code 0}).
     *
     * @throws IllegalArgumentException naming the key and the accepted forms
     */
    public static Duration parse(String key, String text, ChronoUnit bareUnit) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Duration d;
        try {
            if (BARE.matcher(t).matches()) {
                d = bare(key, text, Long.parseLong(t), bareUnit);
            } else if (t.startsWith("p") || t.startsWith("-p") || t.startsWith("+p")) {
                d = Duration.parse(t);
            } else {
                d = withUnits(t);
                if (d == null) {
                    throw invalid(key, text, bareUnit, t.startsWith("-") ? "must not be negative; " : "");
                }
            }
            d.toMillis(); // what the callers use: beyond it is refused here, not wrapped round there
        } catch (NumberFormatException | ArithmeticException e) {
            throw invalid(key, text, bareUnit, "too long: at most " + Long.MAX_VALUE + "ms; ");
        } catch (DateTimeParseException e) {
            throw invalid(key, text, bareUnit, "");
        }
        if (d.isNegative()) {
            throw invalid(key, text, bareUnit, "must not be negative; ");
        }
        return d;
    }

    private static Duration bare(String key, String text, long n, ChronoUnit bareUnit) {
        if (n < 0) {
            throw invalid(key, text, bareUnit, "must not be negative; ");
        }
        if (n == 0) {
            return Duration.ZERO;
        }
        if (bareUnit == null) {
            throw invalid(key, text, null, "a number needs a unit here, e.g. " + n + "ms or " + n + "s; ");
        }
        return Duration.of(n, bareUnit);
    }

    /** {@code 5s}, {@code 1h30m}; {@code null} if {@code t} is not a run of number-unit pairs. */
    private static Duration withUnits(String t) {
        Matcher m = PART.matcher(t);
        Duration total = Duration.ZERO;
        int end = 0;
        while (end < t.length() && m.find(end) && m.start() == end) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                case "w" -> Duration.ofDays(Math.multiplyExact(7, n));
                default -> throw new AssertionError(m.group(2));
            });
            end = m.end();
        }
        return end == 0 || end != t.length() ? null : total;
    }

    private static IllegalArgumentException invalid(String key, String text, ChronoUnit bareUnit, String why) {
        String bare = bareUnit == null ? "" : "; a bare number is " + unitName(bareUnit);
        return InvalidValue.of("duration", key, text, why + "expected " + FORMS + bare);
    }

    private static String unitName(ChronoUnit unit) {
        return unit == ChronoUnit.MILLIS ? "milliseconds" : unit.toString().toLowerCase(Locale.ROOT);
    }

    /** {@code duration} in its largest exact unit up to days, e.g. {@code 7d}, {@code 90m}, {@code 1500ms}. */
    public static String format(Duration duration) {
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
}
