package io.mikyu.broker.server;

import io.mikyu.engine.config.ConfigKey;
import io.mikyu.engine.config.ConfigSection;

import java.util.List;

/**
 * The broker's keys in the shared configuration file: where the daemon listens, its heartbeat, the metrics
 * endpoint and admission (the {@code tls.*} keys, read alike by both sides of a connection, are the engine's
 * {@link io.mikyu.engine.config.MikyuConfig.Key}). Registered as a {@link ConfigSection}, so the file, the
 * system properties and the daemon's flags may name them, and read through
 * {@link io.mikyu.engine.config.MikyuConfig} like the engine's keys.
 */
public final class BrokerConfig implements ConfigSection {

    /** The broker's keys, their defaults (empty: not set) and what they mean. */
    public enum Key implements ConfigKey {
        LISTEN("listen", "tcp://127.0.0.1:7420", "daemon: where to listen, comma-separated tcp://, tls://,"
                + " unix:// endpoints"),
        HEARTBEAT("heartbeat", "10s", "daemon: ping an idle client after this long, drop it after three times"),
        METRICS_PORT("metrics.port", "", "daemon: HTTP port of /metrics (Prometheus) and /health/*; empty: off"),
        METRICS_HOST("metrics.host", "127.0.0.1", "daemon: address the metrics endpoint listens on"),
        MAX_CONNECTIONS("maxConnections", "10000", "daemon: client connections open at once; past it a new one"
                + " is refused at once"),
        MAX_CONNECTIONS_PER_ADDRESS("maxConnectionsPerAddress", "1000", "daemon: client connections open at once"
                + " from one IP address"),
        AUTH_THREADS("security.authThreads", "2", "daemon: threads checking passwords, apart from the workers"
                + " that serve requests (a check costs a good part of a second on purpose)"),
        FREE_LOGIN_FAILURES("security.freeLoginFailures", "5", "daemon: failed logins from one address before"
                + " it must wait (1 s, doubling per further failure, up to security.maxLoginDelay)"),
        MAX_LOGIN_DELAY("security.maxLoginDelay", "30s", "daemon: the longest an address that keeps failing"
                + " logins waits before its next one is checked");

        private final String key;
        private final String defaultValue;
        private final String description;

        Key(String key, String defaultValue, String description) {
            this.key = key;
            this.defaultValue = defaultValue;
            this.description = description;
        }

        @Override
        public String key() {
            return key;
        }

        @Override
        public String defaultValue() {
            return defaultValue;
        }

        @Override
        public String description() {
            return description;
        }
    }

    @Override
    public List<Key> keys() {
        return List.of(Key.values());
    }
}
