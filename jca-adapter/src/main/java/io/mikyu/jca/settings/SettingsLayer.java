package io.mikyu.jca.settings;

import java.util.Map;

/**
 * One layer of configuration: the resource adapter's properties, a connection definition's or an activation
 * spec's overrides, a looked-up connection factory's URL. {@link ConnectionSettings#resolve} stacks them.
 */
public interface SettingsLayer {

    /** The URL of this layer, or null to keep the one below. */
    String url();

    /** The user of this layer, or null to keep the one below (user and password go together). */
    String user();

    String password();

    /** URL options this layer sets, by option name; they override the options of the layers below and the URL's. */
    Map<String, String> options();

    /** A layer of a URL alone (a looked-up connection factory's, say). */
    static SettingsLayer ofUrl(String url) {
        return of(url, null, null, Map.of());
    }

    static SettingsLayer of(String url, String user, String password, Map<String, String> options) {
        return new SettingsLayer() {
            @Override
            public String url() {
                return url;
            }

            @Override
            public String user() {
                return user;
            }

            @Override
            public String password() {
                return password;
            }

            @Override
            public Map<String, String> options() {
                return options;
            }
        };
    }
}
