package io.mikyu.spring.boot.autoconfigure;

import io.mikyu.engine.Secrets;
import io.mikyu.engine.UrlQuery;
import io.mikyu.jms.config.ProviderOptions;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The provider URL {@link MikyuProperties} describe: {@code url} (else {@code vm://} and the embedded directory) with
 * the typed options and {@code options} in its query. An option given twice is refused, naming both places, and
 * the result is checked by the provider's own parser, so a typo fails at start-up.
 */
public final class MikyuUrl {

    /** The embedded store's directory when neither {@code url} nor {@code embedded.directory} is given. */
    public static final String DEFAULT_DIRECTORY = "mikyu-data";

    private static final String PREFIX = "spring.mikyu.";

    private final String base;
    private final Map<String, String> options;
    private final ProviderOptions parsed;

    private MikyuUrl(String base, Map<String, String> options) {
        this.base = base;
        this.options = options;
        try {
            this.parsed = ProviderOptions.parse(value());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spring.mikyu.*: " + e.getMessage(), e);
        }
    }

    /** @throws IllegalArgumentException naming the properties at fault */
    public static MikyuUrl from(MikyuProperties properties) {
        String url = properties.getUrl();
        String directory = properties.getEmbedded().getDirectory();
        // A daemon's URL leaves the embedded directory unused (so that one property switches an application from
        // its embedded store to a daemon); two names of the embedded store would be ambiguous.
        if (url != null && url.startsWith(ProviderOptions.VM_SCHEME) && directory != null) {
            throw new IllegalArgumentException("spring.mikyu.url is a vm:// URL and spring.mikyu.embedded.directory"
                    + " is set too; set one of them: both name the embedded store's directory");
        }
        Options options = new Options();
        String base;
        if (url == null || url.isBlank()) {
            base = ProviderOptions.VM_SCHEME + path(directory == null ? DEFAULT_DIRECTORY : directory);
        } else {
            int q = url.indexOf('?');
            base = q < 0 ? url : url.substring(0, q);
            UrlQuery.ofUrl(url).forEach((name, value) -> options.put(name, value, "url"));
        }
        options.put("durability", properties.getDurability() == null ? null
                : properties.getDurability().name().toLowerCase(java.util.Locale.ROOT), "durability");
        options.put("clientID", properties.getClientId(), "client-id");
        options.put("prefetch", properties.getPrefetch(), "prefetch");
        options.put("maxAttempts", properties.getMaxAttempts(), "max-attempts");
        options.put("redeliveryDelay", millis(properties.getRedeliveryDelay()), "redelivery-delay");
        options.put("leaseMillis", millis(properties.getLease()), "lease");
        options.put("transactionTimeout", seconds(properties.getTransactionTimeout()), "transaction-timeout");
        options.put("reconnect", millis(properties.getReconnect()), "reconnect");
        properties.getOptions().forEach((name, value) -> options.put(name, value, "options[" + name + "]"));
        return new MikyuUrl(base, options.values);
    }

    /** This URL with {@code overrides} replacing or adding options (a health probe's timeouts). */
    public MikyuUrl with(Map<String, String> overrides) {
        Map<String, String> merged = new LinkedHashMap<>(options);
        merged.putAll(overrides);
        return new MikyuUrl(base, merged);
    }

    /** The URL to give {@code MikyuConnectionFactory}. */
    public String value() {
        if (options.isEmpty()) {
            return base;
        }
        return base + "?" + UrlQuery.encode(options);
    }

    /** Whether the URL names a store in this JVM ({@code vm://}) rather than a daemon. */
    public boolean isEmbedded() {
        return !parsed.isRemote();
    }

    /** The parsed form: the data directory of {@code vm://}, the broker of the others. */
    public ProviderOptions parsed() {
        return parsed;
    }

    /** The URL with any password masked. */
    @Override
    public String toString() {
        return Secrets.redact(value());
    }

    /** Options in the order given, each from one place only. */
    private static final class Options {
        final Map<String, String> values = new LinkedHashMap<>();
        final Map<String, String> sources = new LinkedHashMap<>();

        void put(String name, Object value, String property) {
            if (value == null) {
                return;
            }
            String earlier = sources.putIfAbsent(name, PREFIX + property);
            if (earlier != null) {
                throw new IllegalArgumentException("the mikyu URL option '" + name + "' is given twice: in "
                        + earlier + " and in " + PREFIX + property + "; give it once");
            }
            values.put(name, value.toString());
        }
    }

    private static String path(String directory) {
        return UrlQuery.encode(directory).replace("%2F", "/");
    }

    private static Long millis(Duration d) {
        return d == null ? null : d.toMillis();
    }

    private static Long seconds(Duration d) {
        if (d == null) {
            return null;
        }
        if (d.toMillis() % 1000 != 0) {
            throw new IllegalArgumentException("spring.mikyu.transaction-timeout must be whole seconds, not " + d);
        }
        return d.toSeconds();
    }

}
