package io.mikyu.engine;

import java.net.URI;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps secrets out of what mikyu prints: error messages, log lines and {@code mikyu config}. A secret is the value
 * of any key or URL option whose name ends in {@code password} ({@code password}, {@code tls.keyPassword},
 * {@code users.<name>.password}, ...), and the password of a URL's user information ({@code tcp://u:p@host}). Every
 * place that puts a URL into text goes through {@link #redact(String)}, so an unknown option or a bad value
 * reported back to the user never shows the password that came with it.
 */
public final class Secrets {

    /** What a secret is printed as. */
    public static final String MASK = "****";

    // name=value in a query (after ? or &) whose name ends in "password"; the value runs to the next & or #
    private static final Pattern QUERY_SECRET =
            Pattern.compile("(?i)([?&][^=&#?]*password=)[^&#]*");
    // scheme://user:password@ : the password of the user information
    private static final Pattern USER_INFO = Pattern.compile("(://[^/@:?#]*:)[^/@?#]*@");

    private Secrets() {
    }

    /** Whether the value of {@code key} (a configuration key or a URL option) is a secret. */
    public static boolean isSecret(String key) {
        return key != null && key.toLowerCase(Locale.ROOT).endsWith("password");
    }

    /** {@code value}, or {@link #MASK} if {@code key} names a secret and the value is not empty. */
    public static String printable(String key, String value) {
        return isSecret(key) && value != null && !value.isEmpty() ? MASK : value;
    }

    /** {@code url} with the value of every secret option, and the user information's password, masked. */
    public static String redact(String url) {
        if (url == null) {
            return null;
        }
        String masked = QUERY_SECRET.matcher(url).replaceAll("$1" + Matcher.quoteReplacement(MASK));
        return USER_INFO.matcher(masked).replaceAll("$1" + Matcher.quoteReplacement(MASK) + "@");
    }

    /** {@link #redact(String)} of the URI's text. */
    public static String redact(URI uri) {
        return uri == null ? null : redact(uri.toString());
    }
}
