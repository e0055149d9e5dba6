package io.mikyu.jca.settings;

import io.mikyu.engine.UrlQuery;
import io.mikyu.jms.config.ProviderOptions;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a physical connection is opened with: the provider URL, built from the configuration in this one place, and
 * the credentials. The URL is the chosen layer's URL with every option the layers set put into its query (a
 * property overrides the same option already in the URL), then checked by {@link ProviderOptions#parse}: the
 * provider's one parser, so a wrong value fails here with the provider's own message.
 *
 * @param url      the full provider URL, options included
 * @param user     null: none (an embedded store without users, or the broker's configured default)
 * @param password null: none
 */
public record ConnectionSettings(String url, String user, String password) {

    /**
     * Where a connection goes when no URL is configured: a {@code mikyu daemon} on this host, at its default
     * listen address. An application server's working directory is no place to create a store by accident; for an
     * embedded store set {@code url} to {@code vm://<absolute data directory>}.
     */
    public static final String DEFAULT_URL = "tcp://127.0.0.1:7420";

    public ConnectionSettings {
        Objects.requireNonNull(url, "url");
    }

    /**
     * Stacks {@code layers}, weakest first (null layers are skipped): the last URL set wins (else
     * {@link #DEFAULT_URL}), every option set by any layer goes into it, a later layer's over an earlier one's, and
     * the last layer that names a user gives user and password.
     *
     * @throws IllegalArgumentException naming what is wrong, if the result is not a valid mikyu URL
     */
    public static ConnectionSettings resolve(SettingsLayer... layers) {
        String url = null;
        String user = null;
        String password = null;
        Map<String, String> options = new LinkedHashMap<>();
        for (SettingsLayer layer : layers) {
            if (layer == null) {
                continue;
            }
            if (layer.url() != null) {
                url = layer.url();
            }
            if (layer.user() != null) {
                user = layer.user();
                password = layer.password();
            } else if (layer.password() != null && user == null) {
                password = layer.password();
            }
            options.putAll(layer.options());
        }
        String full = withOptions(url == null ? DEFAULT_URL : url, options);
        ProviderOptions.parse(full); // the provider's rules, and its messages
        return new ConnectionSettings(full, user, password);
    }

    /** The same connection with other credentials (container- or application-managed sign-on). */
    public ConnectionSettings withCredentials(String user, String password) {
        return new ConnectionSettings(url, user, password);
    }

    /** The parsed URL. */
    public ProviderOptions options() {
        return ProviderOptions.parse(url);
    }

    /** {@code url} with {@code options} in its query: an option already there is replaced, the others appended. */
    static String withOptions(String url, Map<String, String> options) {
        return UrlQuery.withOptions(url, options);
    }

    /** The URL with passwords hidden, for messages and logs. */
    public String describe() {
        return io.mikyu.engine.Secrets.redact(url) + (user == null ? "" : " as " + user);
    }

    @Override
    public String toString() {
        return "ConnectionSettings[" + describe() + "]";
    }
}
