package io.mikyu.engine.config;

import java.util.List;

/**
 * The keys one module reads from the shared configuration file, beside the engine's own ({@link MikyuConfig.Key}).
 * A module registers its section in {@code META-INF/services/io.mikyu.engine.config.ConfigSection}; the file, the
 * system properties and the explicit values may then use its keys, and {@link MikyuConfig#settings()} lists them.
 * A key no section on the class path declares is refused as unknown.
 */
public interface ConfigSection {

    /** The section's keys, in the order {@code mikyu config} lists them. */
    List<? extends ConfigKey> keys();
}
