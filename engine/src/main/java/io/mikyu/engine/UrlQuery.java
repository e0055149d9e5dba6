package io.mikyu.engine;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The one reader and writer of {@code name=value&...} option lists: the query of every mikyu URL ({@code vm://},
 * {@code tcp://}, {@code Mikyu.dial}, the resource adapter's and the Spring Boot starter's URLs) and the text of a
 * {@code header-equals} filter. The rules ({@code docs/configuration.md}, "Values: durations and sizes"):
 *
 * <ul>
 * <li>pairs are separated by {@code &}; empty pairs ({@code a=1&&b=2}, a trailing {@code &}) are skipped;</li>
 * <li>names and values are percent-decoded as UTF-8, {@code +} being a space (HTML form encoding, what
 * {@link #encode(Map)} writes); a malformed escape is refused;</li>
 * <li>a name without {@code =} has the empty value ({@code ?allowAnonymous} is {@code ?allowAnonymous=}); an empty
 * value is kept as it is, for the option to accept or refuse;</li>
 * <li>an empty name is refused; a name given twice is refused rather than one of the two silently winning;</li>
 * <li>unknown names are refused by {@link #requireKnown}, naming the name and the known ones.</li>
 * </ul>
 *
 * <p>Errors show where the options came from with {@link Secrets#redact(String)} applied, and never show a value.
 */
public final class UrlQuery {

    private UrlQuery() {
    }

    /** The options in the query of {@code url} (what follows its first {@code ?}), decoded, in order. */
    public static Map<String, String> ofUrl(String url) {
        int q = url.indexOf('?');
        return q < 0 ? Map.of() : parse(url.substring(q + 1), url);
    }

    /**
     * The options of {@code query} (without the {@code ?}), decoded, in order.
     *
     * @param source what errors say the options came from (a URL, a filter), redacted before it is shown
     * @throws IllegalArgumentException for an empty name, a name given twice or a malformed escape
     */
    public static Map<String, String> parse(String query, String source) {
        Map<String, String> options = new LinkedHashMap<>();
        if (query == null) {
            return options;
        }
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String rawName = eq < 0 ? pair : pair.substring(0, eq);
            if (rawName.isEmpty()) {
                // Not even the source is shown: a value without a name cannot be told to be no secret.
                int q = source == null ? -1 : source.indexOf('?');
                throw new IllegalArgumentException("an option in the query of "
                        + shown(q < 0 ? source : source.substring(0, q)) + " is not name=value: its name is empty");
            }
            String name = decode(rawName, "option name '" + rawName + "'", source);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), "the value of option '" + name + "'", source);
            if (options.putIfAbsent(name, value) != null) {
                throw new IllegalArgumentException("option '" + name + "' is given twice in " + shown(source)
                        + "; give it once");
            }
        }
        return options;
    }

    /**
     * Refuses an option whose name is not {@code known}.
     *
     * @param names the known names, listed in the error (patterns such as {@code maxAttempts.<queue>} included)
     * @throws IllegalArgumentException naming the first unknown option and every known one
     */
    public static void requireKnown(Map<String, String> options, Predicate<String> known, Collection<String> names,
                                    String source) {
        for (String name : options.keySet()) {
            if (!known.test(name)) {
                throw new IllegalArgumentException("unknown option '" + name + "' in " + shown(source) + "; known: "
                        + String.join(", ", new TreeSet<>(names)));
            }
        }
    }

    /** {@code name=value&...}, each percent-encoded as {@link #parse} reads it back. */
    public static String encode(Map<String, String> options) {
        StringJoiner query = new StringJoiner("&");
        options.forEach((name, value) -> query.add(encode(name) + "=" + encode(value)));
        return query.toString();
    }

    /** {@code url} with {@code options} in its query: one it already has is replaced, the others appended. */
    public static String withOptions(String url, Map<String, String> options) {
        if (options.isEmpty()) {
            return url;
        }
        int q = url.indexOf('?');
        Map<String, String> merged = new LinkedHashMap<>(ofUrl(url));
        merged.putAll(options);
        return (q < 0 ? url : url.substring(0, q)) + "?" + encode(merged);
    }

    /** One percent-encoded component (a query's name or value, or a {@code vm://} URL's directory), decoded. */
    public static String decode(String text, String what, String source) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " in " + shown(source) + " is not percent-encoded right: a %"
                    + " must start two hex digits (%25 is a % itself)");
        }
    }

    /** {@code text} percent-encoded for a query (a space as {@code +}). */
    public static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String shown(String source) {
        return "'" + Secrets.redact(source) + "'";
    }
}
