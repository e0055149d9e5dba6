package io.mikyu.engine;

import java.util.ServiceLoader;

/**
 * Finds the engine's {@link StoreOpener} once, for {@link Mikyu#open(java.nio.file.Path, EngineConfig)}: the API
 * reaches its implementation through a service, so that it names none of the implementation's classes.
 */
final class LocalStores {

    private LocalStores() {
    }

    static StoreOpener opener() {
        StoreOpener opener = Found.OPENER;
        if (opener == null) {
            // Only a repackaged engine jar that dropped its service files gets here.
            throw new MikyuException("the engine's store is not registered: " + StoreOpener.class.getName()
                    + " has no service on the class path or module path (a merged jar must keep the engine's"
                    + " META-INF/services files)");
        }
        return opener;
    }

    /** Loaded on first use; a holder class, so that a missing service is reported on each call, not as a class error. */
    private static final class Found {
        static final StoreOpener OPENER =
                ServiceLoader.load(StoreOpener.class, LocalStores.class.getClassLoader()).findFirst().orElse(null);
    }
}
