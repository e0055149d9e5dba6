package io.mikyu.engine.internal.store;

import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.Mikyu;
import io.mikyu.engine.StoreOpener;

import java.nio.file.Path;

/** The engine's {@link StoreOpener}: a {@link Store} in the directory. */
public final class LocalStoreOpener implements StoreOpener {

    @Override
    public Mikyu open(Path dataDir, EngineConfig config) {
        return Store.open(dataDir, config);
    }
}
