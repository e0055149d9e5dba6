package io.mikyu.engine;

import java.nio.file.Path;

/**
 * Opens a store in a local directory: what {@link Mikyu#open(Path, EngineConfig)} looks for with
 * {@link java.util.ServiceLoader}, so that the API names no class of the implementation. The engine registers its one
 * store in {@code META-INF/services/io.mikyu.engine.StoreOpener} and in its module descriptor; it is not meant to be
 * implemented elsewhere.
 */
public interface StoreOpener {

    /** Opens (creating if needed) the store in {@code dataDir}; as {@link Mikyu#open(Path, EngineConfig)}. */
    Mikyu open(Path dataDir, EngineConfig config);
}
