package io.mikyu.engine.config;

/**
 * One key of the configuration file: its name, its default (empty: not set) and what it means. The engine's keys
 * are {@link MikyuConfig.Key}; another module declares its own in a {@link ConfigSection}.
 */
public interface ConfigKey {

    /** The key as written in the file, {@code -Dmikyu.<key>}, a URL or a flag. */
    String key();

    String defaultValue();

    String description();
}
