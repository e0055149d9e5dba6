package io.mikyu.jms.config;

import io.mikyu.engine.Durability;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A connection URL, parsed: {@code vm://<data-dir>[?name=value&...]}. The data directory may be relative
 * ({@code vm://data}, {@code vm://./data}) or absolute ({@code vm:///var/lib/mikyu}). Unknown option names are
 * refused, so a typo never silently falls back to a default.
 *
 * <table>
 * <tr><th>option</th><th>default</th><th>meaning</th></tr>
 * <tr><td>durability</td><td>sync</td><td>PERSISTENT sends return after fsync ({@code sync}) or after the write
 * reached the OS ({@code async}, flushed within the engine's interval); NON_PERSISTENT is always async</td></tr>
 * <tr><td>clientID</td><td>none</td><td>client ID given to every connection of this factory</td></tr>
 * <tr><td>users</td><td>none</td><td>a users file; turns authentication on</td></tr>
 * <tr><td>allowAnonymous</td><td>false</td><td>with {@code users}: connections without credentials are let in</td></tr>
 * <tr><td>prefetch</td><td>64</td><td>messages a consumer leases ahead of the application (0 = one per receive)</td></tr>
 * <tr><td>maxAttempts</td><td>10</td><td>deliveries before a message goes to its dead-letter queue</td></tr>
 * <tr><td>redeliveryDelay</td><td>0</td><td>millis before a recovered, rolled back or failed message is delivered
 * again</td></tr>
 * <tr><td>leaseMillis</td><td>30000</td><td>lease of a delivered, unacknowledged message; renewed while its
 * session lives</td></tr>
 * </table>
 */
public record ProviderOptions(String url, Path dataDir, Durability persistentDurability, String clientId,
                              Path usersFile, boolean allowAnonymous, int prefetch, int maxAttempts,
                              Duration redeliveryDelay, Duration lease) {

    public static final String VM_SCHEME = "vm://";
    private static final Set<String> KNOWN = Set.of("durability", "clientID", "users", "allowAnonymous", "prefetch",
            "maxAttempts", "redeliveryDelay", "leaseMillis");

    /** Parses a URL; {@link IllegalArgumentException} names what is wrong. */
    public static ProviderOptions parse(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("connection URL is empty; expected vm://<data-dir>[?options]");
        }
        if (!url.startsWith(VM_SCHEME)) {
            String scheme = url.contains("://") ? url.substring(0, url.indexOf("://")) : url;
            if (scheme.equals("tcp") || scheme.equals("unix") || scheme.equals("tls")) {
                throw new IllegalArgumentException("'" + url + "': remote URLs need the mikyu broker client, which "
                        + "this provider does not have yet; use vm://<data-dir>");
            }
            throw new IllegalArgumentException("'" + url + "' is not a mikyu URL; expected vm://<data-dir>[?options]");
        }
        String rest = url.substring(VM_SCHEME.length());
        int q = rest.indexOf('?');
        String dir = q < 0 ? rest : rest.substring(0, q);
        if (dir.isEmpty()) {
            throw new IllegalArgumentException("'" + url + "' names no data directory; expected vm://<data-dir>");
        }
        Map<String, String> opts = q < 0 ? Map.of() : query(url, rest.substring(q + 1));
        Durability durability = switch (opts.getOrDefault("durability", "sync")) {
            case "sync" -> Durability.SYNC;
            case "async" -> Durability.ASYNC;
            default -> throw new IllegalArgumentException("durability must be sync or async in '" + url + "'");
        };
        String users = opts.get("users");
        return new ProviderOptions(url, Path.of(decode(dir)), durability, opts.get("clientID"),
                users == null ? null : Path.of(users), bool(url, opts, "allowAnonymous"),
                intOption(url, opts, "prefetch", 64, 0), intOption(url, opts, "maxAttempts", 10, 1),
                Duration.ofMillis(intOption(url, opts, "redeliveryDelay", 0, 0)),
                Duration.ofMillis(intOption(url, opts, "leaseMillis", 30_000, 100)));
    }

    private static Map<String, String> query(String url, String query) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (!KNOWN.contains(name)) {
                throw new IllegalArgumentException("unknown option '" + name + "' in '" + url + "'; known: "
                        + String.join(", ", new java.util.TreeSet<>(KNOWN)));
            }
            out.put(name, value);
        }
        return Collections.unmodifiableMap(out);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static boolean bool(String url, Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            return false;
        }
        if (v.isEmpty() || v.equals("true")) {
            return true;
        }
        if (v.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException(name + " must be true or false in '" + url + "'");
    }

    private static int intOption(String url, Map<String, String> opts, String name, int dflt, int min) {
        String v = opts.get(name);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min) {
                throw new IllegalArgumentException(name + " must be at least " + min + " in '" + url + "'");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number in '" + url + "'", e);
        }
    }
}
