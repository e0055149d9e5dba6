package io.mikyu.junit5;

import io.mikyu.engine.Durability;
import io.mikyu.engine.UrlQuery;
import io.mikyu.jms.config.ProviderOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * What a {@link MikyuExtension} makes: from {@link MikyuTest}'s attributes or from {@link MikyuExtension.Builder}.
 *
 * @param lifecycle       one store per class or per test
 * @param lifecycleChosen whether the lifecycle was asked for, rather than the default (an instance field's extension
 *                        then defaults to per test)
 * @param durability      the URL's {@code durability}
 * @param broker          whether a broker serves the store on a loopback port
 * @param urlOptions      more URL options, in order
 * @param timeout         how long {@link MikyuQueues} waits by default
 * @param parent          where the temporary directories go; {@code null} for {@code java.io.tmpdir}
 */
record StoreOptions(StoreLifecycle lifecycle, boolean lifecycleChosen, Durability durability, boolean broker,
                    Map<String, String> urlOptions, Duration timeout, Path parent) {

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** Options the extension sets itself, or that would lock its own connections out. */
    private static final Set<String> RESERVED = Set.of("durability", "users", "allowAnonymous");

    StoreOptions {
        urlOptions = Collections.unmodifiableMap(new LinkedHashMap<>(urlOptions));   // in the order given
        for (String name : urlOptions.keySet()) {
            if (RESERVED.contains(name)) {
                throw new IllegalArgumentException("the URL option '" + name + "' is not for the test store: "
                        + (name.equals("durability") ? "use the durability setting"
                        : "the store has no users; test security with a vm:// URL of your own"));
            }
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the timeout must be positive, not " + timeout);
        }
        // Refuses unknown names and bad values now, with the provider's own message, rather than at the first connection.
        ProviderOptions.parse(vmUrl(Path.of("check"), query(durability, urlOptions)));
    }

    static StoreOptions defaults() {
        return new StoreOptions(StoreLifecycle.PER_CLASS, false, Durability.ASYNC, false, Map.of(), DEFAULT_TIMEOUT,
                null);
    }

    static StoreOptions of(MikyuTest test) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String pair : test.options()) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("@MikyuTest(options) takes \"name=value\" pairs, not \"" + pair + "\"");
            }
            options.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return new StoreOptions(test.lifecycle(), true, test.durability(), test.broker(), options, DEFAULT_TIMEOUT,
                null);
    }

    /** The JMS URL of a store in {@code dir}. */
    String vmUrl(Path dir) {
        return vmUrl(dir, query(durability, urlOptions));
    }

    /**
     * The JMS URL of a broker at {@code address}: the options that mean something to a broker URL (engine settings
     * such as {@code flushInterval} are the store's, and are left out).
     */
    String brokerUrl(String address) {
        Map<String, String> remote = new LinkedHashMap<>();
        urlOptions.forEach((name, value) -> {
            try {
                ProviderOptions.parse(address + "?" + pair(name, value));
                remote.put(name, value);
            } catch (IllegalArgumentException notForBrokers) {
                // an embedded engine's setting
            }
        });
        return address + "?" + query(durability, remote);
    }

    private static String vmUrl(Path dir, String query) {
        StringJoiner path = new StringJoiner("/");
        for (String segment : dir.toAbsolutePath().toString().replace('\\', '/').split("/", -1)) {
            path.add(encode(segment));
        }
        String p = path.toString();
        return "vm://" + (p.startsWith("/") ? "" : "/") + p + "?" + query;
    }

    private static String query(Durability durability, Map<String, String> options) {
        StringJoiner query = new StringJoiner("&");
        query.add("durability=" + (durability == Durability.SYNC ? "sync" : "async"));
        options.forEach((name, value) -> query.add(pair(name, value)));
        return query.toString();
    }

    private static String pair(String name, String value) {
        return encode(name) + "=" + encode(value);
    }

    private static String encode(String text) {
        return UrlQuery.encode(text);
    }
}
